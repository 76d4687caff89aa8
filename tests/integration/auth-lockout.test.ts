import { describe, expect, it } from "vitest";

import { strapiSite } from "../support/strapi-site.ts";

/**
 * Per-account lockout with backoff (issue 15.5) through the production site and the real Strapi:
 * five wrong passwords for one address lock it (429 with the wait) even with the right password,
 * for unknown addresses alike (no enumeration); other addresses and the
 * per-IP budget are unaffected.
 */

const site = strapiSite("auth-lockout", { appEnv: { AUTH_RATE_LIMIT_MAX: "1000" } });

async function signIn(email: string, password: string) {
  const response = await fetch(`${site.app.url}/api/auth/sign-in-cms`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: site.app.url },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
}

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
});
