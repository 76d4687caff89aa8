import path from "node:path";

import { describe, expect, it } from "vitest";

import { waitForMail } from "../support/cms-mail.ts";
import { registerCmsUser } from "../support/cms-users.ts";
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

const register = (email: string, password: string) => registerCmsUser(site.cms.url, email, password);

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

  it("strangers cannot lock the owner out: a browser that signed in before counts apart (known device)", async () => {
    const email = "known-device@example.com";
    const password = "Device-passw0rd!";
    await register(email, password);
    const first = await signIn(email, password);
    expect(first.status).toBe(200);
    const device = first.cookies.find((cookie) => cookie.startsWith("acme.known_device="));
    expect(device, first.cookies.join("; ")).toBeDefined();
    expect(device).not.toContain("known-device%40");

    // The attack: anyone who knows the address keeps it locked with wrong passwords.
    for (let i = 0; i < 5; i++) expect((await signIn(email, "wrong-password")).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(429);
    // The owner's browser still signs in; strangers stay locked out, the right password or not.
    expect((await signInToSite(site.app.url, email, password, device)).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(429);
    // A forged or tampered device cookie is a stranger's.
    const forged = device!.slice(0, -1) + (device!.endsWith("A") ? "B" : "A");
    expect((await signInToSite(site.app.url, email, password, forged)).status).toBe(429);
    // Another account's known device is a stranger here too.
    await register("device-neighbour@example.com", password);
    const neighbour = (await signIn("device-neighbour@example.com", password)).cookies.find((cookie) =>
      cookie.startsWith("acme.known_device="),
    );
    expect((await signInToSite(site.app.url, email, password, neighbour)).status).toBe(429);
    // The known device's own wrong passwords lock it in turn (a stolen cookie gets five guesses).
    for (let i = 0; i < 5; i++) {
      expect((await signInToSite(site.app.url, email, "wrong-password", device)).status).toBe(401);
    }
    expect((await signInToSite(site.app.url, email, password, device)).status).toBe(429);
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
