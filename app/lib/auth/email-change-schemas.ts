import * as z from "zod";

/**
 * The fields of the change of email (docs/decisions/0020-account-lifecycle.md, "Change of email"):
 * the /account form that asks for it and the /confirm-email-change page's button. Safe for the browser.
 */

const fields = { error: "Send the form's fields." };

export const requestEmailChangeSchema = z.object(
  {
    email: z
      .string({ error: "Enter the new email address." })
      .trim()
      .toLowerCase()
      .max(254, "This email address is too long.")
      .pipe(z.email({ error: "Enter a valid email address, like name@example.com." })),
    // The password, for an account that has one (else empty: a provider sign-in of the last 5 minutes counts).
    currentPassword: z.string().max(200, "This password is too long.").optional(),
    // The page's locale, for the mail's link (`/de/confirm-email-change`); none: the default locale.
    locale: z
      .string()
      .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/, "Unknown language.")
      .optional(),
  },
  fields,
);

export const confirmEmailChangeSchema = z.object(
  {
    // The CMS's tokens are 64 hex characters; anything else it refuses as invalid (EMAIL_CHANGE_INVALID).
    token: z
      .string({ error: "The link is incomplete." })
      .trim()
      .min(1, "The link is incomplete.")
      .max(512, "The link is incomplete."),
  },
  fields,
);
