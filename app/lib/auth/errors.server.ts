import { APIError, isAPIError } from "better-auth/api";
import { data } from "react-router";

import type { Log } from "../log.ts";
import { BodyTooLargeError } from "@cms-site/page-cache";
import {
  authErrorFieldErrors,
  authErrorMessage,
  authErrorStatus,
  type AuthErrorCode,
  type AuthErrorParams,
} from "./error-codes.ts";

/** What a JSON endpoint answers for a failed step (the body of every 4xx/5xx under /api/auth/*-cms). */
export interface AuthErrorAnswer {
  code: AuthErrorCode;
  message: string;
  fieldErrors: Record<string, string>;
}

/** What a failed auth form shows: the same, plus the values to keep in the form. */
export interface AuthFormFailure extends AuthErrorAnswer {
  ok: false;
  values: Record<string, string>;
}

export interface AuthErrorOptions {
  /** Fill the message's blanks (error-codes.ts). */
  params?: AuthErrorParams;
  /** Messages next to fields; the table's own ones otherwise. */
  fieldErrors?: Record<string, string>;
  /** The same messages in a locale's words (the input schemas' messages: input.server.ts). */
  fieldErrorsIn?: (locale: string) => Record<string, string>;
  /** What went wrong underneath (logged, never answered). */
  cause?: unknown;
}

/**
 * A failed auth step: one code of the table in error-codes.ts, which gives its status and
 * message. It is better-auth's APIError, so an endpoint that throws it (or lets it through)
 * answers with that status and `{ code, message, fieldErrors }` as it is; the /api/auth route
 * and the form actions answer their own refusals through `jsonAnswer` and `formFailure`.
 */
export class AuthError extends APIError {
  readonly code: AuthErrorCode;
  readonly fieldErrors: Record<string, string>;
  readonly params: AuthErrorParams;
  /** Field messages given by the thrower (the input's own), rather than the table's. */
  readonly #ownFieldErrors: Record<string, string> | undefined;
  readonly #ownFieldErrorsIn: ((locale: string) => Record<string, string>) | undefined;

  constructor(code: AuthErrorCode, options: AuthErrorOptions = {}) {
    const answer: AuthErrorAnswer = {
      code,
      message: authErrorMessage(code, options.params),
      fieldErrors: options.fieldErrors ?? authErrorFieldErrors(code),
    };
    // A `cause` in the body is kept off the answer by better-call (a non-enumerable property).
    super(authErrorStatus(code), options.cause === undefined ? answer : { ...answer, cause: options.cause });
    this.code = code;
    this.fieldErrors = answer.fieldErrors;
    this.params = options.params ?? {};
    this.#ownFieldErrors = options.fieldErrors;
    this.#ownFieldErrorsIn = options.fieldErrorsIn;
  }

  get answer(): AuthErrorAnswer {
    return { code: this.code, message: this.message, fieldErrors: this.fieldErrors };
  }

  /** The same answer in the words of `locale` (a form on /de/sign-in): the table's, translated. */
  answerIn(locale: string): AuthErrorAnswer {
    return {
      code: this.code,
      message: authErrorMessage(this.code, this.params, locale),
      fieldErrors: this.#ownFieldErrorsIn?.(locale) ?? this.#ownFieldErrors ?? authErrorFieldErrors(this.code, locale),
    };
  }

  /** Headers that go with the answer, whichever shape it takes. */
  get answerHeaders(): Record<string, string> {
    return {
      ...(this.params.retryAfterSeconds ? { "retry-after": String(this.params.retryAfterSeconds) } : {}),
      // Whatever the client is still sending of a refused body is not read: close the connection.
      ...(this.code === "BODY_TOO_LARGE" ? { connection: "close" } : {}),
    };
  }
}

export const cmsUnavailable = (cause?: unknown) => new AuthError("CMS_UNAVAILABLE", { cause });

/**
 * Any error an auth form or endpoint can meet, as an AuthError: itself; a body over the limit;
 * one of better-auth's own errors (logged to `log`: better-auth's words are not shown, and the site's
 * endpoints only throw AuthErrors). Anything else is a bug, not an answer: null.
 */
export function toAuthError(error: unknown, log: Pick<Log, "warn">): AuthError | null {
  if (error instanceof AuthError) return error;
  if (error instanceof BodyTooLargeError)
    return new AuthError("BODY_TOO_LARGE", { params: { limitBytes: error.limit }, cause: error });
  if (isAPIError(error)) {
    log.warn(
      `[auth] better-auth refused a request (${error.statusCode} ${String(error.body?.code ?? "")}): ${error.message}`,
    );
    return new AuthError("UNEXPECTED", { cause: error });
  }
  return null;
}

/** The JSON answer for an error: the table's status, `{ code, message, fieldErrors }`, never cached. */
export function jsonAnswer(error: AuthError): Response {
  return Response.json(error.answer, {
    status: error.statusCode,
    headers: { "cache-control": "no-store", ...error.answerHeaders },
  });
}

/** Never sent back to the page, whatever happens. */
const SECRET_FIELDS = new Set(["password", "passwordConfirmation", "currentPassword", "code"]);

/**
 * The form's answer for an error: the same code, message and field errors, in the words of the
 * page's locale, with the values to keep.
 */
export function formFailure(error: AuthError, fields: Record<string, string>, locale?: string) {
  const values = Object.fromEntries(Object.entries(fields).filter(([name]) => !SECRET_FIELDS.has(name)));
  return data<AuthFormFailure>(
    { ok: false, ...(locale ? error.answerIn(locale) : error.answer), values },
    { status: error.statusCode, headers: error.answerHeaders },
  );
}
