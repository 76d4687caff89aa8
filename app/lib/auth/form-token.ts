/**
 * The names of the two hidden fields of the bot check (docs/decisions/0021-bot-check-on-auth-forms.md):
 * the signed, time-stamped form token that the page's loader issues (form-token.server.ts), and
 * the honeypot, a text field a person never sees and leaves empty. Safe for the browser: the
 * shared AuthForm (app/components/auth-form.tsx) renders them, runAuthForm
 * (form-action.server.ts) reads them.
 */

import type { ShouldRevalidateFunction } from "react-router";

export const FORM_TOKEN_FIELD = "formToken";

/** An innocuous name that browsers' and password managers' autofill does not recognise. */
export const HONEYPOT_FIELD = "remarks";

/** What a loader gives AuthForm: a form token, for a page whose forms carry the bot check. */
export interface FormTokenData {
  formToken?: string;
}

/**
 * A bot-checked page's `shouldRevalidate`: after every post its loader runs again, so each answer
 * carries a new form token (and AuthForm an empty honeypot), as a page rendered anew without
 * JavaScript does. React Router would otherwise keep the loader's data after a 4xx answer, and a
 * form refused for its token could never be sent.
 */
export const renewFormTokenAfterPost: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" || defaultShouldRevalidate;
