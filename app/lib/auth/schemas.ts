import * as z from "zod";

/**
 * The fields of every auth form and JSON endpoint: one schema each, shared by the form
 * actions and the /api/auth/*-cms endpoints. Safe for the browser (no secrets).
 */

const email = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .max(254, "This email address is too long.")
  .pipe(z.email({ error: "Enter a valid email address, like name@example.com." }));

// Strapi hashes with bcrypt, which reads at most 72 bytes.
const newPassword = z
  .string({ error: "Choose a password." })
  .min(8, "Use at least 8 characters.")
  .refine((value) => new TextEncoder().encode(value).length <= 72, "Use at most 72 bytes (about 72 characters).");

const currentPassword = z
  .string({ error: "Enter your password." })
  .min(1, "Enter your password.")
  .max(200, "This password is too long.");

const confirmation = z.string({ error: "Repeat the new password." });

const matching = <T extends { password: string; passwordConfirmation: string }>(value: T) =>
  value.password === value.passwordConfirmation;
const mismatch = { path: ["passwordConfirmation"], message: "The two passwords do not match." };

// A body that is not an object at all (JSON `null`, a list, a string) is refused as a whole.
const fields = { error: "Send the form's fields." };

/**
 * "Remember me": a checked box sends "on"; a JSON client sends a boolean. Unset means no: the
 * session cookie then lasts until the browser closes.
 */
const rememberMe = z
  .union([z.boolean(), z.enum(["on", "true", "false"])], { error: "Remember me is yes or no." })
  .optional()
  .transform((value) => value === true || value === "on" || value === "true");

export const signInSchema = z.object({ email, password: currentPassword, rememberMe }, fields);
export const registerSchema = z
  .object({ email, password: newPassword, passwordConfirmation: confirmation }, fields)
  .refine(matching, mismatch);
export const forgotPasswordSchema = z.object({ email }, fields);
export const resetPasswordSchema = z
  .object(
    {
      code: z
        .string({ error: "The reset link is incomplete." })
        .trim()
        .min(1, "The reset link is incomplete.")
        .max(512),
      password: newPassword,
      passwordConfirmation: confirmation,
    },
    fields,
  )
  .refine(matching, mismatch);
export const updatePasswordSchema = z
  .object({ currentPassword, password: newPassword, passwordConfirmation: confirmation }, fields)
  .refine(matching, mismatch);

/** A username a user chooses (the CMS checks the same: cms/src/api/account-sessions/lib/username.js). */
export const changeUsernameSchema = z.object(
  {
    username: z
      .string({ error: "Enter a name." })
      .trim()
      .min(3, "Use at least 3 characters.")
      .max(50, "Use at most 50 characters.")
      .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "Use letters, digits, spaces or punctuation.")
      // The CMS refuses it too (cms/src/api/account-sessions/lib/username.js): a name is not an address.
      .refine((value) => !value.includes("@"), "A name cannot contain @."),
  },
  fields,
);

/** Deleting the account: the password, for an account that has one (else empty: a recent sign-in counts). */
export const deleteAccountSchema = z.object(
  { currentPassword: z.string().max(200, "This password is too long.").optional() },
  fields,
);

/** A validation issue, as zod and every Standard Schema library report it. */
export interface InputIssue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined;
}

/** The first message per field, for showing next to the fields; an issue with the whole body is `form`'s. */
export function fieldErrorsOf(issues: readonly InputIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const first = issue.path?.[0];
    const field = first === undefined ? "form" : String(typeof first === "object" ? first.key : first);
    errors[field] ??= issue.message;
  }
  return errors;
}
