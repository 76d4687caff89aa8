import { describe, expect, it, vi } from "vitest";

import { authErrorCode } from "../../../tests/support/auth-error.ts";
import { fakeFetch, silentAnswer, strapiError, type FakeRequest } from "../../../tests/support/fake-fetch.ts";
import { createCmsUsers } from "./cms-users.server.ts";
import type { AuthErrorCode } from "./error-codes.ts";

// The users-permissions client against a fake fetch: what it sends, and how each of Strapi's
// answers (docs/cms-contract.md, "Users-permissions endpoints") becomes a code of the table.
const user = { id: 3, username: "ann@example.com", email: "ann@example.com" };
const signedIn = () => Response.json({ jwt: "new-jwt", user });

function cmsUsers(answer: (request: FakeRequest) => Response | Promise<Response>, timeoutMs = 1_000) {
  const { fetch, requests } = fakeFetch(answer);
  return { requests, users: createCmsUsers({ baseUrl: "https://cms.example", timeoutMs, fetch }) };
}

describe("CMS users: requests", () => {
  it("signs in with no Authorization header, and reads the user with Strapi's defaults", async () => {
    const { users, requests } = cmsUsers(signedIn);
    expect(await users.signIn("ann@example.com", "pw")).toEqual({
      jwt: "new-jwt",
      user: { ...user, provider: "local", confirmed: false, blocked: false },
    });
    expect(requests[0]).toMatchObject({
      url: "https://cms.example/api/auth/local",
      method: "POST",
      body: { identifier: "ann@example.com", password: "pw" },
    });
    expect(requests[0]?.headers.authorization).toBeUndefined();
  });

  it("acts for the user with their JWT on change-password and users/me", async () => {
    const { users, requests } = cmsUsers(({ url }) => (url.endsWith("/users/me") ? Response.json(user) : signedIn()));
    await users.changePassword("user-jwt", "old", "new-password");
    await users.me("user-jwt");
    expect(requests.map((request) => [request.method, request.url, request.headers.authorization])).toEqual([
      ["POST", "https://cms.example/api/auth/change-password", "Bearer user-jwt"],
      ["GET", "https://cms.example/api/users/me", "Bearer user-jwt"],
    ]);
    expect(requests[0]?.body).toEqual({
      currentPassword: "old",
      password: "new-password",
      passwordConfirmation: "new-password",
    });
  });
});

describe("CMS users: Strapi's answers as codes", () => {
  // The CMS's refusals as the accounts plugin tags them (refusal-codes.js), with messages that are
  // not Strapi's: the site reads the code only, so a reworded message changes nothing.
  const refused = (status: number, code?: string) =>
    strapiError(status, "A message Strapi might word differently", code ? { code } : undefined);

  it.each<[string, Response | (() => Promise<Response>), AuthErrorCode]>([
    ["wrong password", refused(400, "INVALID_CREDENTIALS"), "INVALID_CREDENTIALS"],
    ["a blocked account", refused(400, "BLOCKED"), "BLOCKED"],
    ["an unconfirmed address", refused(400, "EMAIL_NOT_CONFIRMED"), "EMAIL_NOT_CONFIRMED"],
    ["a refusal without a known code", refused(400, "SOMETHING_NEW"), "INVALID_CREDENTIALS"],
    ["Strapi's own rate limit", strapiError(429, "Too many requests, please try again later."), "RATE_LIMITED"],
    ["a CMS error", strapiError(500, "Internal Server Error"), "CMS_UNAVAILABLE"],
    ["a CMS that is down", () => Promise.reject(new TypeError("fetch failed")), "CMS_UNAVAILABLE"],
    ["a 200 of the wrong shape", Response.json({ jwt: "" }), "CMS_UNAVAILABLE"],
  ])("sign-in: %s → %s", async (_case, answer, code) => {
    const { users } = cmsUsers(() => (typeof answer === "function" ? answer() : answer));
    expect(await authErrorCode(users.signIn("ann@example.com", "pw"))).toBe(code);
  });

  it("sign-in: Strapi's English without a code is the answer that tells nothing, never BLOCKED", async () => {
    for (const message of [
      "Your account has been blocked by an administrator",
      "Your account email is not confirmed",
    ]) {
      const { users } = cmsUsers(() => strapiError(400, message));
      expect(await authErrorCode(users.signIn("ann@example.com", "pw")), message).toBe("INVALID_CREDENTIALS");
    }
  });

  it("register: 'taken' is an answer, not an error; closed and refused are codes", async () => {
    expect(await cmsUsers(() => refused(400, "EMAIL_TAKEN")).users.register("ann@example.com", "pw")).toBe("taken");
    const closed = cmsUsers(() => refused(400, "REGISTRATION_CLOSED"));
    expect(await authErrorCode(closed.users.register("ann@example.com", "pw"))).toBe("REGISTRATION_CLOSED");
    for (const code of ["INVALID_REGISTRATION", undefined]) {
      const other = cmsUsers(() => refused(400, code));
      expect(await authErrorCode(other.users.register("ann@example.com", "pw")), code).toBe("REGISTRATION_REFUSED");
    }
    // Strapi's English alone is not "taken".
    const english = cmsUsers(() => strapiError(400, "Email or Username are already taken"));
    expect(await authErrorCode(english.users.register("ann@example.com", "pw"))).toBe("REGISTRATION_REFUSED");
  });

  it("forgot-password: the same for known and unknown addresses; only trouble is an error", async () => {
    for (const status of [400, 404]) {
      await expect(cmsUsers(() => strapiError(status, "no")).users.forgotPassword("x@example.com")).resolves.toBe(
        undefined,
      );
    }
    await expect(cmsUsers(() => Response.json({ ok: true })).users.forgotPassword("x@example.com")).resolves.toBe(
      undefined,
    );
    expect(await authErrorCode(cmsUsers(() => strapiError(502, "bad")).users.forgotPassword("x@example.com"))).toBe(
      "CMS_UNAVAILABLE",
    );
  });

  it.each<[string | undefined, AuthErrorCode]>([
    ["RESET_LINK_EXPIRED", "RESET_LINK_EXPIRED"],
    ["INVALID_RESET_CODE", "INVALID_CODE"],
    [undefined, "INVALID_CODE"],
  ])("reset-password: %s → %s", async (cmsCode, code) => {
    const { users } = cmsUsers(() => refused(400, cmsCode));
    expect(await authErrorCode(users.resetPassword("code", "new-password"))).toBe(code);
  });

  it.each<[Response, AuthErrorCode]>([
    [refused(400, "INVALID_PASSWORD"), "WRONG_CURRENT_PASSWORD"],
    [refused(400, "SAME_PASSWORD"), "SAME_PASSWORD"],
    [strapiError(401, "Missing or invalid credentials"), "SESSION_EXPIRED"],
    [refused(400), "CMS_UNAVAILABLE"],
    [strapiError(400, "The provided current password is invalid"), "CMS_UNAVAILABLE"],
  ])("change-password: %#", async (answer, code) => {
    const { users } = cmsUsers(() => answer);
    expect(await authErrorCode(users.changePassword("jwt", "old", "new-password"))).toBe(code);
  });
});

describe("CMS users: users/me decides whether a session is still good", () => {
  it.each([401, 403])("a %i means the JWT is no longer good: invalid", async (status) => {
    const { users } = cmsUsers(() => strapiError(status, "Missing or invalid credentials"));
    expect(await users.me("jwt")).toBe("invalid");
  });

  // A CMS outage does not sign anyone out: only a refusal makes a session invalid.
  it.each<[string, (request: FakeRequest) => Response | Promise<Response>, AuthErrorCode]>([
    ["a 503", () => strapiError(503, "Service Unavailable"), "CMS_UNAVAILABLE"],
    ["a 500", () => strapiError(500, "Internal Server Error"), "CMS_UNAVAILABLE"],
    ["a 429", () => strapiError(429, "Too many requests"), "RATE_LIMITED"],
    ["no answer in time", silentAnswer, "CMS_UNAVAILABLE"],
    ["HTML from a proxy", () => new Response("<html>502</html>", { status: 200 }), "CMS_UNAVAILABLE"],
  ])("%s throws (session kept), never 'invalid'", async (_case, answer, code) => {
    const { users } = cmsUsers(answer, 30);
    expect(await authErrorCode(users.me("jwt"))).toBe(code);
  });
});

describe("CMS users: ending sessions in the CMS (Strapi's logout)", () => {
  it.each([
    ["this", {}],
    ["all", { scope: "all" }],
  ] as const)("%s: POST /api/auth/logout with the user's JWT; 401 means already ended", async (which, body) => {
    const { users, requests } = cmsUsers(() => Response.json({ ok: true }));
    expect(await users.endSessions("user-jwt", which)).toBe("done");
    expect(requests.map(({ method, url, headers }) => [method, url, headers.authorization])).toEqual([
      ["POST", "https://cms.example/api/auth/logout", "Bearer user-jwt"],
    ]);
    expect(requests[0]?.body).toEqual(body);
    const refused = cmsUsers(() => strapiError(401, "Missing or invalid credentials"));
    expect(await refused.users.endSessions("user-jwt", which)).toBe("invalid");
  });

  it("no answer, a 5xx or a 403 throws: the caller cannot know the sessions ended", async () => {
    const { users } = cmsUsers(() => strapiError(503, "Service Unavailable"));
    expect(await authErrorCode(users.endSessions("jwt", "all"))).toBe("CMS_UNAVAILABLE");
    const forbidden = cmsUsers(() => strapiError(403, "Forbidden"));
    expect(await authErrorCode(forbidden.users.endSessions("jwt", "all"))).toBe("CMS_UNAVAILABLE");
  });
});

describe("CMS users: email confirmation", () => {
  it("confirmEmail: Strapi's redirect is success (not followed), its 400 an invalid code", async () => {
    const { users, requests } = cmsUsers(({ url }) =>
      url.includes("confirmation=good")
        ? new Response(null, { status: 302, headers: { location: "https://site.example/confirm-email" } })
        : strapiError(400, "Invalid token"),
    );
    expect(await users.confirmEmail("good")).toBe("confirmed");
    expect(await users.confirmEmail("used")).toBe("invalid");
    expect(requests.map((request) => [request.method, request.url])).toEqual([
      ["GET", "https://cms.example/api/auth/email-confirmation?confirmation=good"],
      ["GET", "https://cms.example/api/auth/email-confirmation?confirmation=used"],
    ]);
    expect(await authErrorCode(cmsUsers(() => new Response("", { status: 500 })).users.confirmEmail("x"))).toBe(
      "CMS_UNAVAILABLE",
    );
  });

  it("sendEmailConfirmation: 'Already confirmed' and 'User blocked' are swallowed (no enumeration)", async () => {
    for (const message of ["Already confirmed", "User blocked"]) {
      const { users, requests } = cmsUsers(() => strapiError(400, message));
      await users.sendEmailConfirmation("ann@example.com");
      expect(requests[0]).toMatchObject({
        url: "https://cms.example/api/auth/send-email-confirmation",
        method: "POST",
        body: { email: "ann@example.com" },
      });
    }
  });

  it("register with confirmation on: the user without a JWT", async () => {
    const { users } = cmsUsers(() => Response.json({ user: { ...user, confirmed: false } }));
    expect(await users.register("ann@example.com", "password-1")).toEqual({
      user: { ...user, provider: "local", confirmed: false, blocked: false },
    });
  });

  it("emailConfirmation: read from GET /api/account-settings, kept for 30 s, the last answer when the CMS is down", async () => {
    let down = false;
    const { users, requests } = cmsUsers(() =>
      down ? new Response("", { status: 503 }) : Response.json({ emailConfirmation: true }),
    );
    expect(await users.emailConfirmation()).toBe(true);
    expect(await users.emailConfirmation()).toBe(true);
    expect(requests.map((request) => request.url)).toEqual(["https://cms.example/api/account-settings"]);
    down = true;
    vi.useFakeTimers({ now: Date.now() + 31_000, toFake: ["Date"] });
    try {
      expect(await users.emailConfirmation()).toBe(true);
      expect(requests).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
    expect(await authErrorCode(cmsUsers(() => new Response("", { status: 503 })).users.emailConfirmation())).toBe(
      "CMS_UNAVAILABLE",
    );
  });
});

describe("CMS users: the change of email", () => {
  it("asks with the user's JWT; the CMS's codes become the table's codes", async () => {
    const { users, requests } = cmsUsers(() => Response.json({ ok: true }));
    await users.requestEmailChange("user-jwt", "new@example.com", "pw", "de");
    expect(requests[0]).toMatchObject({
      url: "https://cms.example/api/account-sessions/email-change",
      method: "POST",
      body: { email: "new@example.com", password: "pw", locale: "de" },
    });
    expect(requests[0]?.headers.authorization).toBe("Bearer user-jwt");
    const codes: Array<[number, string, AuthErrorCode]> = [
      [400, "INVALID_PASSWORD", "WRONG_CURRENT_PASSWORD"],
      [400, "PASSWORD_REQUIRED", "WRONG_CURRENT_PASSWORD"],
      [400, "SIGN_IN_AGAIN", "SIGN_IN_AGAIN_EMAIL"],
      [400, "SAME_EMAIL", "SAME_EMAIL"],
      [400, "INVALID_EMAIL", "INVALID_INPUT"],
      [401, "", "SESSION_EXPIRED"],
      [500, "", "CMS_UNAVAILABLE"],
    ];
    for (const [status, cmsCode, code] of codes) {
      const { users: refusing } = cmsUsers(() => strapiError(status, "refused", { code: cmsCode }));
      expect(await authErrorCode(refusing.requestEmailChange("jwt", "new@example.com", undefined)), cmsCode).toBe(code);
    }
  });

  it("confirms with the token; a new session only when the CMS sent a JWT; expired, used, taken as codes", async () => {
    const confirmed = { ok: true, email: "new@example.com" };
    const { users, requests } = cmsUsers(() => Response.json({ ...confirmed, jwt: "fresh-jwt", user }));
    expect(await users.confirmEmailChange("t".repeat(64), "old-jwt")).toEqual({
      email: "new@example.com",
      auth: { jwt: "fresh-jwt", user: { ...user, provider: "local", confirmed: false, blocked: false } },
    });
    expect(requests[0]).toMatchObject({ body: { token: "t".repeat(64) } });
    expect(requests[0]?.headers.authorization).toBe("Bearer old-jwt");
    const { users: anonymous, requests: sent } = cmsUsers(() => Response.json(confirmed));
    expect(await anonymous.confirmEmailChange("t".repeat(64))).toEqual({ email: "new@example.com" });
    expect(sent[0]?.headers.authorization).toBeUndefined();
    for (const [status, cmsCode, code] of [
      [400, "LINK_EXPIRED", "EMAIL_CHANGE_EXPIRED"],
      [400, "INVALID_TOKEN", "EMAIL_CHANGE_INVALID"],
      [409, "EMAIL_TAKEN", "EMAIL_CHANGE_TAKEN"],
      [503, "", "CMS_UNAVAILABLE"],
    ] as const) {
      const { users: refusing } = cmsUsers(() => strapiError(status, "refused", { code: cmsCode }));
      expect(await authErrorCode(refusing.confirmEmailChange("t".repeat(64))), cmsCode).toBe(code);
    }
  });
});
