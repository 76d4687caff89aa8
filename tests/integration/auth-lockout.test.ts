import path from "node:path";

import { describe, expect, it } from "vitest";

import { waitForMail } from "../support/cms-mail.ts";
import { postToSite, signInToSite } from "../support/site-requests.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * Per-account lockout with backoff (issue 15.5) through the production site and the real Strapi:
 * five wrong passwords for one address lock it (429 with the wait) even with the right password,
 * for unknown addresses alike (no enumeration); other addresses and the
 * per-IP budget are unaffected.
 */

const site = strapiSite("auth-lockout", {
  cmsEnv: (dir) => ({ CMS_MAIL_DIR: path.join(dir, "mail") }),
  appEnv: { AUTH_RATE_LIMIT_MAX: "1000" },
});

const signIn = (email: string, password: string) => signInToSite(site.app.url, email, password);

const post = (apiPath: string, body: unknown) => postToSite(site.app.url, apiPath, body);

async function register(email: string, password: string) {
  const response = await fetch(`${site.cms.url}/api/auth/local/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: email, email, password }),
  });
  expect(response.status).toBe(200);
}

describe("per-account lockout (real Strapi)", () => {
  it("five wrong passwords lock the address, known or not, even for the right password; others are unaffected", async () => {
    const password = "Lockout-passw0rd!";
    await register("locked@example.com", password);
    await register("other@example.com", password);

    for (const email of ["locked@example.com", "nobody@example.com"]) {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await signIn(email, "wrong-password")).status);
      expect(statuses, email).toEqual([401, 401, 401, 401, 401, 429]);
    }
    const right = await signIn("locked@example.com", password);
    expect(right.status).toBe(429);
    expect(right.body.code).toBe("RATE_LIMITED");
    expect(right.body.message).toMatch(/Please wait (5\d|60) seconds/);
    // The unknown address is answered the same way.
    const unknown = await signIn("nobody@example.com", password);
    expect(unknown.status).toBe(429);
    expect(unknown.body.message).toMatch(/Please wait (5\d|60) seconds/);

    expect((await signIn("other@example.com", password)).status).toBe(200);
  }, 60_000);

  it("a password reset (proof of the address) ends the lockout others' guesses put on it", async () => {
    const email = "reset-unlocks@example.com";
    await register(email, "Before-passw0rd!");
    for (let i = 0; i < 5; i++) expect((await signIn(email, "wrong-password")).status).toBe(401);
    expect((await signIn(email, "Before-passw0rd!")).status).toBe(429);

    const before = Date.now();
    expect((await post("/api/auth/forgot-password-cms", { email })).status).toBe(200);
    const mail = await waitForMail(path.join(site.dir, "mail"), email, { after: before });
    const code = new URL(mail.resetLink!).searchParams.get("code");
    const password = "After-passw0rd!";
    const reset = await post("/api/auth/reset-password-cms", { code, password, passwordConfirmation: password });
    expect(reset.status, await reset.text()).toBe(200);
    expect((await signIn(email, password)).status).toBe(200);
  }, 60_000);
});
