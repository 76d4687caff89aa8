import * as z from "zod";

import { forgotPasswordSchema, inputMessage } from "./schemas.ts";

/**
 * The fields of the confirm-email page's two forms (app/routes/confirm-email.tsx): the code from
 * the confirmation mail, and the address a new mail is asked for. Safe for the browser.
 */

export const confirmEmailSchema = z.object(
  {
    // Strapi's codes are 40 hex characters; anything else is refused by the CMS as invalid.
    code: z
      .string({ error: inputMessage("input.confirmationLinkIncomplete") })
      .trim()
      .min(1, inputMessage("input.confirmationLinkIncomplete"))
      .max(512),
  },
  { error: inputMessage("input.fieldsMissing") },
);

/** The address a new mail is asked for: read as the forgot-password form reads it. */
export const resendConfirmationSchema = forgotPasswordSchema;
