import * as z from "zod";

/**
 * The fields of the confirm-email page's two forms (app/routes/confirm-email.tsx): the code from
 * the confirmation mail, and the address a new mail is asked for. Safe for the browser.
 */

export const confirmEmailSchema = z.object(
  {
    // Strapi's codes are 40 hex characters; anything else is refused by the CMS as invalid.
    code: z
      .string({ error: "The confirmation link is incomplete." })
      .trim()
      .min(1, "The confirmation link is incomplete.")
      .max(512),
  },
  { error: "Send the form's fields." },
);

export const resendConfirmationSchema = z.object(
  {
    email: z
      .string({ error: "Enter your email address." })
      .trim()
      .toLowerCase()
      .max(254, "This email address is too long.")
      .pipe(z.email({ error: "Enter a valid email address, like name@example.com." })),
  },
  { error: "Send the form's fields." },
);
