import fc from "fast-check";
import { describe, expect, it } from "vitest";

import {
  fieldErrorsOf,
  forgotPasswordSchema,
  registerSchema,
  resetPasswordSchema,
  signInSchema,
  updatePasswordSchema,
} from "./schemas.ts";

const errorsOf = (result: { success: boolean; error?: { issues: Parameters<typeof fieldErrorsOf>[0] } }) =>
  result.success ? {} : fieldErrorsOf(result.error?.issues ?? []);

describe("the auth schemas", () => {
  it("read an email trimmed and lower-cased, and drop fields they do not know", () => {
    expect(
      signInSchema.parse({ email: "  Ann@Example.COM ", password: "x", redirectTo: "/company", intent: "sign-in" }),
    ).toEqual({
      email: "ann@example.com",
      password: "x",
      rememberMe: false,
    });
    expect(forgotPasswordSchema.parse({ email: "BOB@example.com" })).toEqual({ email: "bob@example.com" });
  });

  it("read remember-me from a checkbox ('on') or JSON (boolean); unset is no", () => {
    const base = { email: "ann@example.com", password: "x" };
    expect(signInSchema.parse({ ...base, rememberMe: "on" }).rememberMe).toBe(true);
    expect(signInSchema.parse({ ...base, rememberMe: true }).rememberMe).toBe(true);
    expect(signInSchema.parse({ ...base, rememberMe: false }).rememberMe).toBe(false);
    expect(signInSchema.parse(base).rememberMe).toBe(false);
    expect(errorsOf(signInSchema.safeParse({ ...base, rememberMe: "forever" }))).toEqual({
      rememberMe: "Remember me is yes or no.",
    });
  });

  it("say it in the page's language: the messages are keys of the table of words, English by default", () => {
    const issues = registerSchema.safeParse({ email: "nope", password: "short", passwordConfirmation: "short" }).error
      ?.issues;
    expect(fieldErrorsOf(issues ?? [], "de")).toEqual({
      email: "Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.com.",
      password: "Verwenden Sie mindestens 8 Zeichen.",
    });
    expect(fieldErrorsOf(issues ?? [])).toEqual({
      email: "Enter a valid email address, like name@example.com.",
      password: "Use at least 8 characters.",
    });
    // A locale without words gets English; a message that is no key is shown as it is.
    expect(fieldErrorsOf(issues ?? [], "fr").password).toBe("Use at least 8 characters.");
    expect(fieldErrorsOf([{ message: "Plain words.", path: ["x"] }], "de")).toEqual({ x: "Plain words." });
  });

  it("say what is wrong, next to the field", () => {
    expect(errorsOf(signInSchema.safeParse({}))).toEqual({
      email: "Enter your email address.",
      password: "Enter your password.",
    });
    expect(errorsOf(signInSchema.safeParse({ email: 42, password: "" }))).toEqual({
      email: "Enter your email address.",
      password: "Enter your password.",
    });
    expect(errorsOf(signInSchema.safeParse({ email: "not-an-email", password: "x" }))).toEqual({
      email: "Enter a valid email address, like name@example.com.",
    });
    expect(errorsOf(forgotPasswordSchema.safeParse({ email: `${"a".repeat(250)}@example.com` }))).toEqual({
      email: "This email address is too long.",
    });
  });

  it("refuse a body that is not an object as a whole", () => {
    for (const body of [null, undefined, "email=a", [1, 2], 7]) {
      expect(errorsOf(signInSchema.safeParse(body))).toEqual({ form: "Send the form's fields." });
    }
  });

  it("want a new password of 8 characters to 72 bytes (bcrypt's limit), typed twice alike", () => {
    const register = (password: string, passwordConfirmation = password) =>
      errorsOf(registerSchema.safeParse({ email: "a@example.com", password, passwordConfirmation }));
    expect(register("Short-1")).toEqual({ password: "Use at least 8 characters." });
    expect(register("a".repeat(72))).toEqual({});
    // 36 two-byte characters are 72 bytes; 37 are too many, though only 37 characters.
    expect(register("é".repeat(36))).toEqual({});
    expect(register("é".repeat(37))).toEqual({ password: "Use at most 72 bytes (about 72 characters)." });
    expect(register("Long-enough-1", "Long-enough-2")).toEqual({
      passwordConfirmation: "The two passwords do not match.",
    });
  });

  it("check the reset code and the password change the same way", () => {
    expect(
      errorsOf(
        resetPasswordSchema.safeParse({ code: " ", password: "Long-enough-1", passwordConfirmation: "Long-enough-1" }),
      ),
    ).toEqual({
      code: "The reset link is incomplete.",
    });
    expect(
      resetPasswordSchema.parse({ code: " abc ", password: "Long-enough-1", passwordConfirmation: "Long-enough-1" })
        .code,
    ).toBe("abc");
    expect(
      errorsOf(
        updatePasswordSchema.safeParse({
          currentPassword: "",
          password: "Long-enough-1",
          passwordConfirmation: "Long-enough-1",
        }),
      ),
    ).toEqual({ currentPassword: "Enter your password." });
    expect(
      errorsOf(
        updatePasswordSchema.safeParse({
          currentPassword: "x".repeat(201),
          password: "Long-enough-1",
          passwordConfirmation: "Long-enough-1",
        }),
      ),
    ).toEqual({ currentPassword: "This password is too long." });
  });

  it("never throw, whatever they are given, and parse what they accept to the same again", () => {
    fc.assert(
      fc.property(fc.anything(), (body) => {
        for (const schema of [
          signInSchema,
          registerSchema,
          forgotPasswordSchema,
          resetPasswordSchema,
          updatePasswordSchema,
        ]) {
          const result = schema.safeParse(body);
          if (result.success) expect(schema.parse(result.data)).toEqual(result.data);
          else expect(Object.keys(fieldErrorsOf(result.error.issues)).length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("fieldErrorsOf", () => {
  it("keeps the first message per field; Standard Schema path segments count like keys", () => {
    expect(
      fieldErrorsOf([
        { message: "first", path: ["email"] },
        { message: "second", path: ["email"] },
        { message: "segment", path: [{ key: "password" }, 0] },
        { message: "whole body" },
      ]),
    ).toEqual({ email: "first", password: "segment", form: "whole body" });
  });
});
