import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { formTokenOf } from "../support/auth-form.ts";
import { registerCmsUser } from "../support/cms-users.ts";
import { startFakeSmtp, type FakeSmtp } from "../support/smtp-server.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * The attack: find out whether an address has an account. Before the fix, registration
 * answered 409 "An account with this email already exists" (and signed a new address in),
 * and forgot-password took longer for a known address (Strapi writes a reset code and sends
 * a mail only then; here through an SMTP server that takes 300 ms to accept a message, as
 * real ones take their time); registration also took longer for a new address (Strapi hashes
 * the password and writes the user). Now both answer the same, in the same time.
 * Real Strapi and the production build of the site.
 */

const TIMEOUT = 240_000;
let smtp: FakeSmtp;

const KNOWN = "known@example.com";
const KNOWN_PASSWORD = "Known-passw0rd!";

beforeAll(async () => {
  smtp = await startFakeSmtp(await getPort(), { acceptDelayMs: 300 });
});
afterAll(() => smtp?.stop());

const site = strapiSite("auth-enumeration", {
  cmsEnv: () => ({ SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) }),
  appEnv: { CMS_FETCH_TIMEOUT_MS: "5000", AUTH_RATE_LIMIT_MAX: "1000" },
});

beforeAll(async () => {
  await registerCmsUser(site.cms.url, KNOWN, KNOWN_PASSWORD);
}, TIMEOUT);

interface Sample {
  status: number;
  body: string;
  cookies: string[];
  ms: number;
}

async function timedPost(apiPath: string, body: unknown, form = false): Promise<Sample> {
  // A form is posted with the token its page gives (the bot check), fetched before the clock starts.
  const token = form ? await formTokenOf(site.app.url, apiPath) : {};
  const started = performance.now();
  const response = await fetch(`${site.app.url}${apiPath}`, {
    method: "POST",
    headers: { "content-type": form ? "application/x-www-form-urlencoded" : "application/json", origin: site.app.url },
    body: form ? new URLSearchParams({ ...token, ...(body as Record<string, string>) }) : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text,
    cookies: response.headers.getSetCookie(),
    ms: performance.now() - started,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Alternates the two kinds of request (so load and warm-up hit both alike) and returns the samples of each. */
async function interleaved(rounds: number, a: (i: number) => Promise<Sample>, b: (i: number) => Promise<Sample>) {
  const first: Sample[] = [];
  const second: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    first.push(await a(i));
    second.push(await b(i));
  }
  return [first, second] as const;
}

describe("no account enumeration (real Strapi)", () => {
  it("register: a taken address gets the answer a new one gets (no 409, no session), in the same time", async () => {
    const register = (email: string) =>
      timedPost("/api/auth/register-cms", {
        email,
        password: "Fresh-passw0rd!",
        passwordConfirmation: "Fresh-passw0rd!",
      });
    const [fresh, taken] = await interleaved(
      7,
      (i) => register(`new-${i}@example.com`),
      () => register(KNOWN),
    );
    for (const sample of [...fresh, ...taken]) {
      expect(sample.status, sample.body).toBe(200);
      expect(sample.body).toBe(fresh[0]!.body);
      expect(sample.cookies.filter((cookie) => cookie.includes("session"))).toEqual([]);
    }
    expect(JSON.parse(fresh[0]!.body).message).toMatch(
      /If this email address was not registered yet, your account is ready/,
    );
    // Strapi takes ~120 ms more for a new address (bcrypt, insert); the answers must not show it.
    const spread = Math.abs(median(fresh.map((s) => s.ms)) - median(taken.map((s) => s.ms)));
    expect(
      spread,
      `new ${fresh.map((s) => Math.round(s.ms))} taken ${taken.map((s) => Math.round(s.ms))}`,
    ).toBeLessThan(50);

    // The new account exists; the taken one kept its password.
    expect(
      (await timedPost("/api/auth/sign-in-cms", { email: "new-0@example.com", password: "Fresh-passw0rd!" })).status,
    ).toBe(200);
    expect((await timedPost("/api/auth/sign-in-cms", { email: KNOWN, password: KNOWN_PASSWORD })).status).toBe(200);
    expect((await timedPost("/api/auth/sign-in-cms", { email: KNOWN, password: "Fresh-passw0rd!" })).status).toBe(401);
  }, 60_000);

  it("the register form answers a taken address with the page a new address gets", async () => {
    const form = (email: string) =>
      timedPost("/register", { email, password: "Form-passw0rd!", passwordConfirmation: "Form-passw0rd!" }, true);
    const fresh = await form("form-new@example.com");
    const taken = await form(KNOWN);
    expect(fresh.status).toBe(200);
    expect(taken.status).toBe(200);
    expect(taken.body).not.toContain("already exists");
    expect(taken.body).toContain("If this email address was not registered yet, your account is ready");
    // Each page carries a new form token (the bot check, in the page's data): the only difference allowed.
    const withoutToken = (html: string) => html.replace(/\b[0-9a-z]{1,12}\.[\w-]{43}\b/g, "FORM-TOKEN");
    expect(withoutToken(taken.body)).toBe(withoutToken(fresh.body));
    expect(withoutToken(fresh.body)).not.toBe(fresh.body);
    expect([...fresh.cookies, ...taken.cookies].filter((cookie) => cookie.includes("session"))).toEqual([]);
  }, 30_000);

  it("sign-in: a wrong password for a known address and any password for an unknown one, same answer in the same time", async () => {
    // Strapi compared the password (bcrypt, tens of ms) only when the address had an account, and answered an
    // unknown one at once (cms/src/plugins/accounts/server/users-permissions/sign-in-timing.js). One known account per round,
    // so that the per-account lockout (5 failures) never answers in its place.
    // 11 rounds, limit 50 ms: without the equaliser an unknown address answers about 100 ms sooner
    // (one bcrypt), so the limit still catches it; 7 rounds and 25 ms failed on a loaded 2-core
    // machine with the equaliser on (medians 36 to 67 ms apart: the load, not the code).
    const rounds = 11;
    for (let i = 0; i < rounds; i++) {
      const email = `timing-${i}@example.com`;
      await registerCmsUser(site.cms.url, email, KNOWN_PASSWORD);
    }
    const signIn = (email: string) => timedPost("/api/auth/sign-in-cms", { email, password: "Wrong-passw0rd!" });
    const [known, unknown] = await interleaved(
      rounds,
      (i) => signIn(`timing-${i}@example.com`),
      (i) => signIn(`timing-nobody-${i}@example.com`),
    );
    for (const sample of [...known, ...unknown]) {
      expect(sample.status, sample.body).toBe(401);
      expect(sample.body).toBe(known[0]!.body);
    }
    const spread = Math.abs(median(known.map((s) => s.ms)) - median(unknown.map((s) => s.ms)));
    expect(
      spread,
      `known ${known.map((s) => Math.round(s.ms))} unknown ${unknown.map((s) => Math.round(s.ms))}`,
    ).toBeLessThan(50);
  }, 60_000);

  it("forgot-password: known and unknown addresses, same answer in the same time; the mail goes out", async () => {
    const forgot = (email: string) => timedPost("/api/auth/forgot-password-cms", { email });
    const [known, unknown] = await interleaved(
      15,
      () => forgot(KNOWN),
      (i) => forgot(`nobody-${i}@example.com`),
    );
    for (const sample of [...known, ...unknown]) {
      expect(sample.status, sample.body).toBe(200);
      expect(sample.body).toBe(known[0]!.body);
    }
    // Strapi takes 300 ms (the mail server) and more for a known address; the answers must not show it.
    const spread = Math.abs(median(known.map((s) => s.ms)) - median(unknown.map((s) => s.ms)));
    expect(
      spread,
      `known ${known.map((s) => Math.round(s.ms))} unknown ${unknown.map((s) => Math.round(s.ms))}`,
    ).toBeLessThan(50);

    // The work still happens, after the answer: every request for the known address mailed it.
    await expect
      .poll(() => smtp.messages.filter((mail) => mail.to.includes(KNOWN)).length, { timeout: 15_000 })
      .toBe(15);
    expect(smtp.messages.every((mail) => mail.to.includes(KNOWN))).toBe(true);
  }, 60_000);
});
