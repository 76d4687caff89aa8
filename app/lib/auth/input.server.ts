import type * as z from "zod";

import { AuthError } from "./errors.server.ts";
import { fieldErrorsOf, type InputIssue } from "./schemas.ts";

/**
 * Reading a form or an endpoint's body with one of the schemas in schemas.ts: what does not fit
 * is INVALID_INPUT, with the schema's message next to each field it concerns.
 */

export function invalidInput(issues: readonly InputIssue[]): AuthError {
  // The messages in English for a JSON answer, in the page's words for a form (AuthError.answerIn).
  return new AuthError("INVALID_INPUT", {
    fieldErrors: fieldErrorsOf(issues),
    fieldErrorsIn: (locale) => fieldErrorsOf(issues, locale),
  });
}

/** The fields as the schema reads them (trimmed, lower-cased email, ...), or an INVALID_INPUT AuthError. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error.issues);
  return parsed.data;
}

/**
 * The options of a POST endpoint whose body is this schema: better-auth parses the body with it
 * before the handler runs (`ctx.body` is the parsed value), and a body that does not fit is
 * answered like a form that does not (INVALID_INPUT and the messages per field), not with
 * better-call's own VALIDATION_ERROR.
 */
export function schemaBody<S extends z.ZodType>(schema: S) {
  return {
    method: "POST" as const,
    body: schema,
    onValidationError({ issues }: { issues: readonly InputIssue[] }): never {
      throw invalidInput(issues);
    },
  };
}
