import { APIError, isAPIError } from "better-auth/api";
import { afterEach, describe, expect, it, vi } from "vitest";

import { BodyTooLargeError } from "@cms-site/page-cache";
import { AUTH_ERRORS, authErrorMessage, type AuthErrorCode } from "./error-codes.ts";
import { AuthError, formFailure, jsonAnswer, toAuthError } from "./errors.server.ts";
import { memoryLog } from "../../../tests/support/memory-log.ts";

const codes = Object.keys(AUTH_ERRORS) as AuthErrorCode[];

afterEach(() => vi.restoreAllMocks());

describe("AuthError", () => {
  it.each(codes)("%s carries the table's status and message, as better-auth's APIError", (code) => {
    const error = new AuthError(code);
    expect(isAPIError(error)).toBe(true);
    expect(error).toBeInstanceOf(APIError);
    expect(error.statusCode).toBe(AUTH_ERRORS[code].status);
    expect(error.message).toBe(authErrorMessage(code));
    // What better-auth answers for it, when an endpoint throws it.
    expect(error.body).toEqual({ code, message: authErrorMessage(code), fieldErrors: error.fieldErrors });
  });

  it("takes field errors of its own over the table's, and parameters for its message", () => {
    expect(new AuthError("INVALID_INPUT", { fieldErrors: { email: "Enter your email address." } }).answer).toEqual({
      code: "INVALID_INPUT",
      message: "Please correct the highlighted fields.",
      fieldErrors: { email: "Enter your email address." },
    });
    expect(new AuthError("RATE_LIMITED", { params: { retryAfterSeconds: 7 } }).message).toBe(
      "Too many attempts. Please wait 7 seconds and try again.",
    );
  });

  it("keeps its cause for the log, never in the answer", () => {
    const cause = new Error("connect ECONNREFUSED 127.0.0.1:1337");
    const error = new AuthError("CMS_UNAVAILABLE", { cause });
    expect(error.cause).toBe(cause);
    expect(JSON.stringify(error.body)).not.toContain("ECONNREFUSED");
    expect(JSON.stringify(error.answer)).not.toContain("ECONNREFUSED");
  });
});

describe("toAuthError", () => {
  it("passes an AuthError through as it is", () => {
    const error = new AuthError("BLOCKED");
    expect(toAuthError(error, memoryLog())).toBe(error);
  });

  it("turns a body over the limit into BODY_TOO_LARGE with the limit", () => {
    expect(toAuthError(new BodyTooLargeError(16384), memoryLog())?.answer).toEqual({
      code: "BODY_TOO_LARGE",
      message: "This request is too large: at most 16384 bytes.",
      fieldErrors: {},
    });
  });

  it("shows none of better-auth's own words: UNEXPECTED, logged", () => {
    const log = memoryLog();
    const mapped = toAuthError(
      new APIError("BAD_REQUEST", { code: "PROVIDER_NOT_FOUND", message: "Provider not found" }),
      log,
    );
    expect(mapped?.answer).toEqual({
      code: "UNEXPECTED",
      message: "Something went wrong. Please try again.",
      fieldErrors: {},
    });
    expect(mapped?.statusCode).toBe(500);
    expect(log.messages("warn")).toEqual([expect.stringContaining("PROVIDER_NOT_FOUND")]);
  });

  it("leaves anything else to be thrown (a bug, not an answer)", () => {
    expect(toAuthError(new TypeError("x is undefined"), memoryLog())).toBeNull();
    expect(toAuthError("a string", memoryLog())).toBeNull();
  });
});

describe("the two answers derived from one error", () => {
  it("JSON: the table's status, { code, message, fieldErrors }, never cached", async () => {
    const response = jsonAnswer(new AuthError("SAME_PASSWORD"));
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      code: "SAME_PASSWORD",
      message: "The new password must differ from the current one.",
      fieldErrors: { password: "Choose a password different from the current one." },
    });
  });

  it("a form: the same code, message, field errors and status, plus the values to keep (never a secret)", () => {
    const fields = {
      email: "ann@example.com",
      password: "Secret-1",
      passwordConfirmation: "Secret-1",
      currentPassword: "Old-secret-1",
      code: "reset-code",
      redirectTo: "/company",
    };
    const failure = formFailure(new AuthError("INVALID_CREDENTIALS"), fields);
    expect(failure.init?.status).toBe(401);
    expect(failure.data).toEqual({
      ok: false,
      code: "INVALID_CREDENTIALS",
      message: "Wrong email or password.",
      fieldErrors: {},
      values: { email: "ann@example.com", redirectTo: "/company" },
    });
  });

  it.each(codes)("%s: the form and the JSON answer say the same", async (code) => {
    const error = new AuthError(code);
    const response = jsonAnswer(error);
    const failure = formFailure(error, {});
    expect(failure.init?.status).toBe(response.status);
    const { ok, values, ...shown } = failure.data;
    expect([ok, values]).toEqual([false, {}]);
    expect(shown).toEqual(await response.json());
  });

  it("tells when to try again (Retry-After), and closes the connection under a refused body", () => {
    const limited = new AuthError("RATE_LIMITED", { params: { retryAfterSeconds: 12 } });
    expect(jsonAnswer(limited).headers.get("retry-after")).toBe("12");
    expect(new Headers(formFailure(limited, {}).init?.headers).get("retry-after")).toBe("12");
    expect(jsonAnswer(new AuthError("BODY_TOO_LARGE", { params: { limitBytes: 10 } })).headers.get("connection")).toBe(
      "close",
    );
    expect(jsonAnswer(new AuthError("BLOCKED")).headers.get("retry-after")).toBeNull();
  });
});
