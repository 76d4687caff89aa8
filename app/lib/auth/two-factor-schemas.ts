import * as z from "zod";

import { inputMessage as say } from "./schemas.ts";

/**
 * The fields of the two-factor forms and their JSON endpoints (plugins/two-factor.server.ts).
 * A code is a 6-digit TOTP code or a recovery code (`XXXXX-XXXXX`); spaces are dropped (apps
 * show "123 456"), the CMS reads the rest. Messages are keys of the site's words (schemas.ts).
 * Safe for the browser.
 */

const code = z
  .string({ error: say("input.codeMissing") })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(z.string().min(1, say("input.codeMissing")).max(32, say("input.codeTooLong")));

const password = z
  .string({ error: say("input.currentPasswordMissing") })
  .min(1, say("input.currentPasswordMissing"))
  .max(200, say("input.currentPasswordTooLong"));

const fields = { error: say("input.fieldsMissing") };

/** The sign-in's second step (the rest comes from the pending sign-in cookie). */
export const twoFactorCodeSchema = z.object({ code }, fields);
/** Starting the set-up: the password again. */
export const twoFactorSetupSchema = z.object({ currentPassword: password }, fields);
/** Turning it off: the password and a code. */
export const twoFactorDisableSchema = z.object({ currentPassword: password, code }, fields);
