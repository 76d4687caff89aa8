import * as z from "zod";

/**
 * The fields of the two-factor forms and their JSON endpoints (plugins/two-factor.server.ts).
 * A code is a 6-digit TOTP code or a recovery code (`XXXXX-XXXXX`); spaces are dropped (apps
 * show "123 456"), the CMS reads the rest. Safe for the browser.
 */

const code = z
  .string({ error: "Enter the code." })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(z.string().min(1, "Enter the code.").max(32, "This code is too long."));

const password = z
  .string({ error: "Enter your password." })
  .min(1, "Enter your password.")
  .max(200, "This password is too long.");

const fields = { error: "Send the form's fields." };

/** The sign-in's second step (the rest comes from the pending sign-in cookie). */
export const twoFactorCodeSchema = z.object({ code }, fields);
/** Starting the set-up: the password again. */
export const twoFactorSetupSchema = z.object({ currentPassword: password }, fields);
/** Turning it off: the password and a code. */
export const twoFactorDisableSchema = z.object({ currentPassword: password, code }, fields);
