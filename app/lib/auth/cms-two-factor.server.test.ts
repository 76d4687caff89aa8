import { describe, expect, it } from "vitest";

import { authErrorCode } from "../../../tests/support/auth-error.ts";
import { fakeFetch, strapiError, type FakeRequest } from "../../../tests/support/fake-fetch.ts";
import { createCmsTwoFactor } from "./cms-two-factor.server.ts";
import type { AuthErrorCode } from "./error-codes.ts";
import { AuthError } from "./errors.server.ts";

// The client of the CMS's two-factor routes against a fake fetch: what it sends, and how each
// refusal (`error.details.code`, docs/cms-contract.md "Account two-factor") becomes a site code.

function twoFactor(answer: (request: FakeRequest) => Response | Promise<Response>) {
  const { fetch, requests } = fakeFetch(answer);
  return { requests, client: createCmsTwoFactor({ baseUrl: "https://cms.example", timeoutMs: 1_000, fetch }) };
}

const refused = (status: number, code: string, details: Record<string, unknown> = {}) =>
  strapiError(status, "refused", { code, ...details });

describe("CMS two-factor: requests", () => {
  it("acts for the user with their JWT, on the routes of the contract", async () => {
    const { client, requests } = twoFactor(({ url }) => {
      if (url.endsWith("/account-two-factor")) return Response.json({ enabled: false, recoveryCodesLeft: 0 });
      if (url.endsWith("/setup")) return Response.json({ secret: "JBSWY3DP", uri: "otpauth://totp/Acme:ann?x" });
      if (url.endsWith("/verify")) return Response.json({ method: "recovery", recoveryCodesLeft: 9 });
      if (url.endsWith("/disable")) return Response.json({ ok: true });
      return Response.json({ recoveryCodes: ["AAAAA-BBBBB"], jwt: "new-jwt" });
    });
    expect(await client.status("jwt")).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(await client.setup("jwt", "pw")).toEqual({ secret: "JBSWY3DP", uri: "otpauth://totp/Acme:ann?x" });
    expect(await client.enable("jwt", "123456")).toEqual({ recoveryCodes: ["AAAAA-BBBBB"], jwt: "new-jwt" });
    expect(await client.verify("jwt", "AAAAA-BBBBB")).toEqual({ method: "recovery", recoveryCodesLeft: 9 });
    expect(await client.disable("jwt", "pw", "123456")).toEqual({ ok: true });
    expect(await client.newRecoveryCodes("jwt", "123456")).toMatchObject({ recoveryCodes: ["AAAAA-BBBBB"] });
    expect(requests.map(({ method, url, headers, body }) => [method, url, headers.authorization, body])).toEqual([
      ["GET", "https://cms.example/api/account-two-factor", "Bearer jwt", undefined],
      ["POST", "https://cms.example/api/account-two-factor/setup", "Bearer jwt", { password: "pw" }],
      ["POST", "https://cms.example/api/account-two-factor/enable", "Bearer jwt", { code: "123456" }],
      ["POST", "https://cms.example/api/account-two-factor/verify", "Bearer jwt", { code: "AAAAA-BBBBB" }],
      ["POST", "https://cms.example/api/account-two-factor/disable", "Bearer jwt", { password: "pw", code: "123456" }],
      ["POST", "https://cms.example/api/account-two-factor/recovery-codes", "Bearer jwt", { code: "123456" }],
    ]);
  });
});

describe("CMS two-factor: refusals as codes", () => {
  it.each<[string, Response, AuthErrorCode]>([
    ["a wrong password", refused(400, "INVALID_PASSWORD"), "WRONG_CURRENT_PASSWORD"],
    ["no password (a provider's account)", refused(400, "NO_PASSWORD"), "TWO_FACTOR_NO_PASSWORD"],
    ["already on", refused(409, "ALREADY_ENABLED"), "TWO_FACTOR_ALREADY_ENABLED"],
    ["not on", refused(409, "NOT_ENABLED"), "TWO_FACTOR_NOT_ENABLED"],
    ["no set-up to confirm", refused(400, "NO_PENDING_SETUP"), "TWO_FACTOR_NO_SETUP"],
    ["a wrong code", refused(400, "INVALID_CODE"), "TWO_FACTOR_WRONG_CODE"],
    ["a code used before", refused(400, "CODE_ALREADY_USED"), "TWO_FACTOR_CODE_USED"],
    ["the JWT refused", strapiError(401, "Unauthorized"), "SESSION_EXPIRED"],
    ["a code the site does not know", refused(400, "SOMETHING_NEW"), "CMS_UNAVAILABLE"],
    ["a failing CMS", strapiError(500, "boom"), "CMS_UNAVAILABLE"],
  ])("%s", async (_name, answer, code) => {
    const { client } = twoFactor(() => answer.clone());
    expect(await authErrorCode(client.setup("jwt", "pw"))).toBe(code);
  });

  it("too many wrong codes: RATE_LIMITED with the CMS's wait", async () => {
    const { client } = twoFactor(() => refused(429, "TOO_MANY_ATTEMPTS", { retryAfterSeconds: 120 }));
    const error = await client.verify("jwt", "000000").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe("RATE_LIMITED");
    expect((error as AuthError).params.retryAfterSeconds).toBe(120);
    expect((error as AuthError).answerHeaders["retry-after"]).toBe("120");
  });

  it("at the sign-in's second step a refused JWT means the pending sign-in is over", async () => {
    const { client } = twoFactor(() => strapiError(401, "Unauthorized"));
    expect(await authErrorCode(client.verify("jwt", "123456"))).toBe("TWO_FACTOR_EXPIRED");
  });

  it("an answer of the wrong shape (a secret without otpauth URI) is CMS_UNAVAILABLE", async () => {
    const { client } = twoFactor(() => Response.json({ secret: "JBSWY3DP", uri: "https://evil.example" }));
    expect(await authErrorCode(client.setup("jwt", "pw"))).toBe("CMS_UNAVAILABLE");
  });
});
