import { createAuthEndpoint } from "better-auth/api";
import { describe, expect, it } from "vitest";

import { AuthError } from "./errors.server.ts";
import { parseInput, schemaBody } from "./input.server.ts";
import { registerSchema, signInSchema } from "./schemas.ts";

describe("parseInput (the form actions)", () => {
  it("answers the parsed fields", () => {
    expect(parseInput(signInSchema, { email: " Ann@Example.com", password: "pw", redirectTo: "/x" })).toEqual({
      email: "ann@example.com",
      password: "pw",
      rememberMe: false,
    });
  });

  it("refuses with INVALID_INPUT and a message per field", () => {
    const refused = (() => {
      try {
        parseInput(registerSchema, {
          email: "ann@example.com",
          password: "Long-enough-1",
          passwordConfirmation: "Other-one-1",
        });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).answer).toEqual({
      code: "INVALID_INPUT",
      message: "Please correct the highlighted fields.",
      fieldErrors: { passwordConfirmation: "The two passwords do not match." },
    });
  });
});

describe("schemaBody (the JSON endpoints)", () => {
  // An endpoint as the plugins declare theirs, called directly (as auth.api does, without hooks).
  const echo = createAuthEndpoint("/echo", schemaBody(signInSchema), async (ctx) => ctx.json(ctx.body));

  it("hands the handler the parsed body", async () => {
    expect(await echo({ body: { email: "BOB@example.com ", password: "pw" } })).toEqual({
      email: "bob@example.com",
      password: "pw",
      rememberMe: false,
    });
  });

  it("answers a body that does not fit as a form that does not: INVALID_INPUT, per field, not VALIDATION_ERROR", async () => {
    // As a client would send it: whatever JSON it likes.
    const wrongTypes = JSON.parse('{ "email": 42 }');
    const refused = await echo({ body: wrongTypes }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).statusCode).toBe(400);
    expect((refused as AuthError).body).toEqual({
      code: "INVALID_INPUT",
      message: "Please correct the highlighted fields.",
      fieldErrors: { email: "Enter your email address.", password: "Enter your password." },
    });
  });
});
