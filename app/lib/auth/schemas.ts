import * as z from "zod";

import { DEFAULT_MESSAGES_LOCALE, isMessageKey, t, type MessageKey } from "../i18n/messages.ts";

/**
 * The fields of every auth form and JSON endpoint: one schema each, shared by the form
 * actions and the /api/auth/*-cms endpoints. Safe for the browser (no secrets).
 *
 * A schema's messages are keys of the site's table of words (`input.*`, app/lib/i18n/messages.ts),
 * never words: fieldErrorsOf says them in the page's locale (a form on /de/register: German); the
 * JSON endpoints answer in English, as their other messages do.
 */

/** An input message: a key of the table, kept by zod as the issue's message (`say`, for short). */
export const inputMessage = (key: MessageKey & `input.${string}`): string => key;
const say = inputMessage;

const email = z
  .string({ error: say("input.emailMissing") })
  .trim()
  .toLowerCase()
  .max(254, say("input.emailTooLong"))
  .pipe(z.email({ error: say("input.emailInvalid") }));

// Strapi hashes with bcrypt, which reads at most 72 bytes.
const newPassword = z
  .string({ error: say("input.passwordMissing") })
  .min(8, say("input.passwordTooShort"))
  .refine((value) => new TextEncoder().encode(value).length <= 72, say("input.passwordTooLong"));

const currentPassword = z
  .string({ error: say("input.currentPasswordMissing") })
  .min(1, say("input.currentPasswordMissing"))
  .max(200, say("input.currentPasswordTooLong"));

const confirmation = z.string({ error: say("input.repeatPassword") });

const matching = <T extends { password: string; passwordConfirmation: string }>(value: T) =>
  value.password === value.passwordConfirmation;
const mismatch = { path: ["passwordConfirmation"], message: say("input.passwordsDiffer") };

// A body that is not an object at all (JSON `null`, a list, a string) is refused as a whole.
const fields = { error: say("input.fieldsMissing") };

/**
 * "Remember me": a checked box sends "on"; a JSON client sends a boolean. Unset means no: the
 * session cookie then lasts until the browser closes.
 */
const rememberMe = z
  .union([z.boolean(), z.enum(["on", "true", "false"])], { error: say("input.rememberMe") })
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
        .string({ error: say("input.resetLinkIncomplete") })
        .trim()
        .min(1, say("input.resetLinkIncomplete"))
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

/** A username a user chooses (the CMS checks the same: cms/src/plugins/accounts/server/services/account/username.js). */
export const changeUsernameSchema = z.object(
  {
    username: z
      .string({ error: say("input.nameMissing") })
      .trim()
      .min(3, say("input.nameTooShort"))
      .max(50, say("input.nameTooLong"))
      .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), say("input.nameCharacters"))
      // The CMS refuses it too (cms/src/plugins/accounts/server/services/account/username.js): a name is not an address.
      .refine((value) => !value.includes("@"), say("input.nameWithAt")),
  },
  fields,
);

/** Deleting the account: the password, for an account that has one (else empty: a recent sign-in counts). */
export const deleteAccountSchema = z.object(
  { currentPassword: z.string().max(200, say("input.currentPasswordTooLong")).optional() },
  fields,
);

/** A validation issue, as zod and every Standard Schema library report it. */
export interface InputIssue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined;
}

/**
 * The first message per field, in `locale`'s words, for showing next to the fields; an issue with
 * the whole body is `form`'s. A message that is not a key of the table (zod's own, a schema that
 * still has words) is shown as it is.
 */
export function fieldErrorsOf(issues: readonly InputIssue[], locale = DEFAULT_MESSAGES_LOCALE): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const first = issue.path?.[0];
    const field = first === undefined ? "form" : String(typeof first === "object" ? first.key : first);
    errors[field] ??= isMessageKey(issue.message) ? t(locale, issue.message) : issue.message;
  }
  return errors;
}
