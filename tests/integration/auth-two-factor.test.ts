import { describe, expect, it } from "vitest";

import { postAuthForm } from "../support/auth-form.ts";
import { registerCmsUser } from "../support/cms-users.ts";
import { getPage } from "../support/site-requests.ts";
import { siteSession } from "../support/site-session.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { totpCode } from "../support/totp.ts";
import { longestStepWait, stepTime, withinOneStep } from "../support/totp-step.ts";

/**
 * Two-factor authentication through the site's JSON endpoints and the production build, against
 * the real Strapi (app/lib/auth/plugins/two-factor.server.ts; the CMS half is
 * tests/integration/cms-two-factor.test.ts): enrolment issues a new session; the password alone
 * (JSON sign-in) gives no session for such an account; the second step starts one once, with a
 * sealed pending cookie that cannot be replayed; the new endpoints refuse another site.
 */

// A test that waits for a TOTP step boundary gets the default budget (vitest.config.ts) plus
// the longest that wait can be (docs/testing.md).
const DEFAULT_TIMEOUT = 15_000;
const waitingForStep = (ms: number) => DEFAULT_TIMEOUT + longestStepWait(ms);
const site = strapiSite("auth-two-factor", {
  sharedCms: true,
  appEnv: { CMS_FETCH_TIMEOUT_MS: "5000", AUTH_RATE_LIMIT_MAX: "1000" },
});
const client = siteSession(() => site.app.url);
const PASSWORD = "Two-factor-site-1!";
const EMAIL = "second-factor@example.com";

/** The Set-Cookie header of one cookie (by the end of its name), or undefined. */
const setCookieOf = (response: Response, name: string) =>
  response.headers.getSetCookie().find((value) => value.split("=")[0]?.endsWith(name));

/** The Cookie header that sends back the pending sign-in cookie of this answer. */
function pendingCookieOf(response: Response): string {
  const header = setCookieOf(response, "two_factor_pending");
  expect(header, response.headers.getSetCookie().join(" | ")).toBeDefined();
  return header!.split(";")[0]!;
}

const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

let secret = "";
let recoveryCodes: string[] = [];

describe("enrolment", () => {
  it(
    "set-up needs the password; turning on with a code gives ten recovery codes and a new session, and ends the old one",
    async () => {
      await registerCmsUser(site.cms.url, EMAIL, PASSWORD);
      const before = await client.signIn(EMAIL, PASSWORD);
      const other = await client.signIn(EMAIL, PASSWORD);

      const wrong = await client.postJson("/api/auth/two-factor-setup-cms", { currentPassword: "nope" }, before);
      expect(wrong.status).toBe(400);
      expect((await json(wrong)).code).toBe("WRONG_CURRENT_PASSWORD");

      const setup = await client.postJson("/api/auth/two-factor-setup-cms", { currentPassword: PASSWORD }, before);
      expect(setup.status, await setup.clone().text()).toBe(200);
      const answer = await json(setup);
      secret = String(answer.secret);
      expect(String(answer.uri)).toMatch(/^otpauth:\/\/totp\//);

      const refused = await client.postJson("/api/auth/two-factor-enable-cms", { code: "000000" }, before);
      expect(refused.status).toBe(400);
      expect((await json(refused)).code).toBe("TWO_FACTOR_WRONG_CODE");

      await withinOneStep(10_000);
      const enabled = await client.postJson("/api/auth/two-factor-enable-cms", { code: totpCode(secret) }, before);
      expect(enabled.status, await enabled.clone().text()).toBe(200);
      recoveryCodes = (await json(enabled)).recoveryCodes as string[];
      expect(recoveryCodes).toHaveLength(10);
      // A new session for this client (ASVS 7.2.4); the one before, and the other device's, have ended.
      const after = client.cookieOf(enabled);
      expect(await client.emailOf(after)).toBe(EMAIL);
      expect((await client.sessionOf(after))?.session.id).not.toBe((await client.sessionOf(before))?.session.id);
      expect(await client.emailOf(before)).toBeNull();
      expect(await client.emailOf(other)).toBeNull();
    },
    waitingForStep(10_000),
  );
});

describe("wrong passwords at the set-up", () => {
  it("count per account: after five, even the right one waits (429), as on the account page's other forms", async () => {
    await registerCmsUser(site.cms.url, "guessing@example.com", PASSWORD);
    const cookie = await client.signIn("guessing@example.com", PASSWORD);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await client.postJson(
        "/api/auth/two-factor-setup-cms",
        { currentPassword: `Guess-${attempt}` },
        cookie,
      );
      expect(wrong.status).toBe(400);
    }
    const locked = await client.postJson("/api/auth/two-factor-setup-cms", { currentPassword: PASSWORD }, cookie);
    expect(locked.status).toBe(429);
    expect((await json(locked)).code).toBe("RATE_LIMITED");
  });
});

describe("signing in with two-factor on", () => {
  it("the JSON sign-in answers 403 TWO_FACTOR_REQUIRED and starts no session", async () => {
    const response = await client.postJson("/api/auth/sign-in-cms", { email: EMAIL, password: PASSWORD });
    expect(response.status).toBe(403);
    expect((await json(response)).code).toBe("TWO_FACTOR_REQUIRED");
    expect(setCookieOf(response, "session_token")).toBeUndefined();
    expect(setCookieOf(response, "session_data")).toBeUndefined();
    // The pending sign-in: sealed (no JWT, no address in it), HttpOnly, Path=/ (as `__Host-` requires on https), 5 minutes.
    const pending = setCookieOf(response, "two_factor_pending")!;
    expect(pending).toMatch(/; Path=\/;/);
    expect(pending).toMatch(/; Max-Age=300/);
    expect(pending).toMatch(/; HttpOnly/);
    expect(pending).toMatch(/; SameSite=Lax/i);
    expect(pending).not.toContain("second-factor");
    expect(await client.emailOf(pendingCookieOf(response))).toBeNull();
  });

  it("a wrong password is still just a wrong password (nothing about the second factor)", async () => {
    const response = await client.postJson("/api/auth/sign-in-cms", { email: EMAIL, password: "Wrong-one-1!" });
    expect(response.status).toBe(401);
    expect(setCookieOf(response, "two_factor_pending")).toBeUndefined();
  });

  it("the second step: a wrong code starts nothing; a recovery code starts the session, once", async () => {
    const first = await client.postJson("/api/auth/sign-in-cms", { email: EMAIL, password: PASSWORD });
    const pending = pendingCookieOf(first);

    const wrong = await client.postJson("/api/auth/two-factor-cms", { code: "000000" }, pending);
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).code).toBe("TWO_FACTOR_WRONG_CODE");
    expect(setCookieOf(wrong, "session_token")).toBeUndefined();

    const right = await client.postJson("/api/auth/two-factor-cms", { code: recoveryCodes[0] }, pending);
    expect(right.status, await right.clone().text()).toBe(200);
    expect((await json(right)).recoveryCodesLeft).toBe(9);
    expect(await client.emailOf(client.cookieOf(right))).toBe(EMAIL);
    expect(setCookieOf(right, "two_factor_pending")).toMatch(/Max-Age=0/);

    // The same pending cookie again, even with a good code: over.
    const replay = await client.postJson("/api/auth/two-factor-cms", { code: recoveryCodes[1] }, pending);
    expect(replay.status).toBe(401);
    expect((await json(replay)).code).toBe("TWO_FACTOR_EXPIRED");
    // A used recovery code does not work a second time.
    const again = await client.postJson("/api/auth/sign-in-cms", { email: EMAIL, password: PASSWORD });
    const reused = await client.postJson(
      "/api/auth/two-factor-cms",
      { code: recoveryCodes[0] },
      pendingCookieOf(again),
    );
    expect(reused.status).toBe(400);
  });

  it(
    "a TOTP code works once; no pending cookie, or a forged one, is TWO_FACTOR_EXPIRED",
    async () => {
      await withinOneStep(10_000);
      const code = totpCode(secret, stepTime(1));
      const first = await client.postJson("/api/auth/sign-in-cms", { email: EMAIL, password: PASSWORD });
      const ok = await client.postJson("/api/auth/two-factor-cms", { code }, pendingCookieOf(first));
      expect(ok.status, await ok.clone().text()).toBe(200);

      const second = await client.postJson("/api/auth/sign-in-cms", { email: EMAIL, password: PASSWORD });
      const reused = await client.postJson("/api/auth/two-factor-cms", { code }, pendingCookieOf(second));
      expect(reused.status).toBe(400);
      expect((await json(reused)).code).toBe("TWO_FACTOR_CODE_USED");

      const none = await client.postJson("/api/auth/two-factor-cms", { code: recoveryCodes[2] });
      expect((await json(none)).code).toBe("TWO_FACTOR_EXPIRED");
      const forged = await client.postJson(
        "/api/auth/two-factor-cms",
        { code: recoveryCodes[2] },
        `${pendingCookieOf(second)}x`,
      );
      expect((await json(forged)).code).toBe("TWO_FACTOR_EXPIRED");
    },
    waitingForStep(10_000),
  );

  it("the session keeps the password step's remember me", async () => {
    const signIn = (rememberMe: boolean) =>
      client.postJson("/api/auth/sign-in-cms", { email: EMAIL, password: PASSWORD, rememberMe });
    const remembered = await client.postJson(
      "/api/auth/two-factor-cms",
      { code: recoveryCodes[5] },
      pendingCookieOf(await signIn(true)),
    );
    expect(setCookieOf(remembered, "session_token")).toMatch(/Max-Age=604800/);
    const forgotten = await client.postJson(
      "/api/auth/two-factor-cms",
      { code: recoveryCodes[6] },
      pendingCookieOf(await signIn(false)),
    );
    expect(setCookieOf(forgotten, "session_token")).not.toMatch(/Max-Age|Expires/i);
  });

  it("the sign-in form sends the browser to the code page, with the pending cookie (Path=/)", async () => {
    const response = await postAuthForm(site.app.url, "/de/sign-in", {
      email: EMAIL,
      password: PASSWORD,
      redirectTo: "/de/account",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/de/sign-in/two-factor?redirectTo=%2Fde%2Faccount");
    const pending = setCookieOf(response, "two_factor_pending");
    expect(pending).toMatch(/^acme\.two_factor_pending=[^;]+; /);
    expect(pending).toMatch(/; Path=\/(;|$)/);
    expect(pending).toMatch(/; Max-Age=300(;|$)/);
    expect(setCookieOf(response, "session_token")).toBeUndefined();
  });
});

describe("the new pages", () => {
  it("are never stored in the page cache, in either spelling, signed in or not", async () => {
    await registerCmsUser(site.cms.url, "pages@example.com", PASSWORD);
    const cookie = await client.signIn("pages@example.com", PASSWORD);
    const pages: Array<[string, Record<string, string>, number]> = [
      ["/sign-in/two-factor", {}, 200],
      ["/de/sign-in/two-factor", {}, 200],
      ["/account/two-factor", { cookie }, 200],
      ["/de/account/two-factor", { cookie }, 200],
      ["/account/two-factor", {}, 302],
    ];
    for (const [path, headers, status] of pages) {
      for (let round = 0; round < 2; round++) {
        const page = await getPage(site.app.url, path, headers);
        expect(page.status, path).toBe(status);
        expect(page.headers.get("x-cache"), `${path} #${round + 1}`).toBeNull();
        expect(page.headers.get("cache-control") ?? "", path).not.toMatch(/public|s-maxage/);
      }
    }
    expect((await getPage(site.app.url, "/de/account/two-factor", { cookie })).text).toContain(
      "Zwei-Faktor-Authentifizierung ist ausgeschaltet",
    );
  });
});

describe("the new endpoints refuse another site", () => {
  it.each([
    "/api/auth/two-factor-cms",
    "/api/auth/two-factor-setup-cms",
    "/api/auth/two-factor-enable-cms",
    "/api/auth/two-factor-disable-cms",
    "/api/auth/two-factor-recovery-codes-cms",
  ])("%s: 403 CROSS_ORIGIN", async (path) => {
    const response = await client.postJson(path, { code: "123456", currentPassword: PASSWORD }, "", {
      origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
    expect((await json(response)).code).toBe("CROSS_ORIGIN");
  });
});

describe("turning it off", () => {
  it("needs the password and a code; then the password alone signs in again", async () => {
    const first = await client.postJson("/api/auth/sign-in-cms", { email: EMAIL, password: PASSWORD });
    const done = await client.postJson("/api/auth/two-factor-cms", { code: recoveryCodes[3] }, pendingCookieOf(first));
    const cookie = client.cookieOf(done);

    const noCode = await client.postJson(
      "/api/auth/two-factor-disable-cms",
      { currentPassword: PASSWORD, code: "000000" },
      cookie,
    );
    expect(noCode.status).toBe(400);
    const off = await client.postJson(
      "/api/auth/two-factor-disable-cms",
      { currentPassword: PASSWORD, code: recoveryCodes[4] },
      cookie,
    );
    expect(off.status, await off.clone().text()).toBe(200);
    expect(await client.emailOf(await client.signIn(EMAIL, PASSWORD))).toBe(EMAIL);
  });
});
