import { afterEach, describe, expect, it, vi } from "vitest";

import { authErrorCode } from "../../../tests/support/auth-error.ts";
import { fakeFetch, strapiError } from "../../../tests/support/fake-fetch.ts";
import { memoryLog } from "../../../tests/support/memory-log.ts";
import { syncOAuthUserWithCms, type OAuthIdentity } from "./cms-oauth-sync.server.ts";
import type { AuthErrorCode } from "./error-codes.ts";

// The OAuth sync call against a fake fetch: the request, and each answer of the CMS's table
// (docs/cms-contract.md, "OAuth sync route") as the code the visitor gets.
const SECRET = "oauth-sync-secret-0123456789";
const identity: OAuthIdentity = { provider: "github", subject: "42", email: "ann@example.com", emailVerified: true };
const user = { id: 3, username: "ann", email: "ann@example.com", provider: "github", confirmed: true, blocked: false };

function sync(answer: () => Response | Promise<Response>, asked: OAuthIdentity = identity, log = memoryLog()) {
  const { fetch, requests } = fakeFetch(answer);
  const result = syncOAuthUserWithCms(
    { baseUrl: "https://cms.example", secret: SECRET, timeoutMs: 1_000, fetch, log },
    asked,
  );
  return { result, requests };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("OAuth sync", () => {
  it("posts the identity with the shared secret, the name cut to 100 characters, and reads a 201", async () => {
    const { result, requests } = sync(() => Response.json({ jwt: "jwt", user, created: true }, { status: 201 }), {
      ...identity,
      name: "x".repeat(150),
    });
    expect(await result).toEqual({ jwt: "jwt", user });
    expect(requests[0]).toMatchObject({
      url: "https://cms.example/api/oauth-sync",
      method: "POST",
      headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
      body: { ...identity, name: "x".repeat(100) },
    });
  });

  it.each<[string, Response, OAuthIdentity, AuthErrorCode]>([
    ["409 unverified email", strapiError(409, "x", { code: "EMAIL_NOT_VERIFIED" }), identity, "OAUTH_EMAIL_EXISTS"],
    [
      "409 unconfirmed account",
      strapiError(409, "x", { code: "ACCOUNT_EMAIL_NOT_CONFIRMED" }),
      identity,
      "OAUTH_ACCOUNT_UNCONFIRMED",
    ],
    ["403 blocked", strapiError(403, "x", { code: "BLOCKED" }), identity, "BLOCKED"],
    [
      "404 on a re-sync",
      strapiError(404, "x", { code: "NOT_LINKED" }),
      { ...identity, refresh: true },
      "OAUTH_LINK_GONE",
    ],
    ["404 otherwise", strapiError(404, "x", { code: "NOT_LINKED" }), identity, "CMS_UNAVAILABLE"],
    ["429", strapiError(429, "x"), identity, "CMS_UNAVAILABLE"],
    ["200 of the wrong shape", Response.json({ jwt: "jwt" }), identity, "CMS_UNAVAILABLE"],
  ])("%s → %s", async (_case, answer, asked, code) => {
    expect(await authErrorCode(sync(() => answer, asked).result)).toBe(code);
  });

  it.each([401, 503])("a %i (the secret) is logged for the operator and answered CMS_UNAVAILABLE", async (status) => {
    const log = memoryLog();
    expect(await authErrorCode(sync(() => strapiError(status, "x"), identity, log).result)).toBe("CMS_UNAVAILABLE");
    expect(log.messages("error")).toContainEqual(
      expect.stringMatching(new RegExp(`\\(${status}\\): check CMS_OAUTH_SYNC_SECRET`)),
    );
  });

  it("a CMS that is down is CMS_UNAVAILABLE", async () => {
    expect(await authErrorCode(sync(() => Promise.reject(new TypeError("fetch failed"))).result)).toBe(
      "CMS_UNAVAILABLE",
    );
  });
});
