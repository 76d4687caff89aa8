import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { readMails, waitForMail } from "../support/cms-mail.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";

/**
 * The password flows of users-permissions on the real Strapi, with email written to files
 * (no SMTP): register, forgot password → mail with `<CLIENT_URL>/reset-password?code=…`,
 * reset, sign in with the new password. Strapi's own auth rate limit is relaxed (the front
 * end limits per client IP) and configurable; the auth settings survive a restart unchanged.
 */

const PORT = await getPort();
const TIMEOUT = 240_000;
const CLIENT_URL = "http://127.0.0.1:3999";

type Json = Record<string, any>;

async function post(cms: CmsHandle, apiPath: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${cms.url}${apiPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

describe("CMS auth email and rate limit (real Strapi)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cms-auth-mail-"));
  const mailDir = path.join(dir, "mail");
  const dbFile = path.join(dir, "cms.db");
  const logFile = path.join(dir, "cms.log");
  let cms: CmsHandle | undefined;

  beforeAll(async () => {
    cms = await startCms({ port: PORT, dbFile, fresh: true, logFile, env: { CLIENT_URL, CMS_MAIL_DIR: mailDir } });
  }, TIMEOUT);

  afterAll(async () => {
    await cms?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  const email = "Carol.Reset@Example.com";
  const oldPassword = "Old-passw0rd!";
  const newPassword = "New-passw0rd!";

  it("registers a user, mails a reset link to CLIENT_URL, resets the password, signs in with the new one", async () => {
    const registered = await post(cms!, "/api/auth/local/register", {
      username: "carol",
      email,
      password: oldPassword,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.body.jwt).toEqual(expect.any(String)); // email confirmation is off

    const before = Date.now();
    const forgot = await post(cms!, "/api/auth/forgot-password", { email });
    expect(forgot.status).toBe(200);
    expect(forgot.body).toEqual({ ok: true });

    const mail = await waitForMail(mailDir, email, { after: before });
    expect(mail.to).toBe("carol.reset@example.com");
    expect(mail.subject).toBe("Reset password");
    expect(mail.resetLink).toMatch(/^http:\/\/127\.0\.0\.1:3999\/reset-password\?code=[0-9a-f]{128}$/);
    expect(mail.html).toContain(mail.resetLink);
    expect(mail.text).toContain(mail.resetLink);
    expect(Date.parse(mail.sentAt)).toBeGreaterThanOrEqual(before);
    // The provider logged one line for it.
    expect(readFileSync(logFile, "utf8")).toContain(
      `[mail] to=carol.reset@example.com subject=Reset password file=${mail.file}`,
    );

    const code = new URL(mail.resetLink!).searchParams.get("code");
    const reset = await post(cms!, "/api/auth/reset-password", {
      code,
      password: newPassword,
      passwordConfirmation: newPassword,
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.user.email).toBe("carol.reset@example.com");

    expect((await post(cms!, "/api/auth/local", { identifier: email, password: oldPassword })).status).toBe(400);
    const login = await post(cms!, "/api/auth/local", { identifier: email, password: newPassword });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(registered.body.user.id);

    // The code is single use.
    const again = await post(cms!, "/api/auth/reset-password", {
      code,
      password: "Third-passw0rd!",
      passwordConfirmation: "Third-passw0rd!",
    });
    expect(again.status).toBe(400);
  });

  it("sends nothing for an unknown address (and still answers ok)", async () => {
    const before = Date.now();
    expect((await post(cms!, "/api/auth/forgot-password", { email: "nobody@example.com" })).body).toEqual({ ok: true });
    await expect(waitForMail(mailDir, "nobody@example.com", { after: before, timeoutMs: 500 })).rejects.toThrow(
      /no message to nobody@example.com/,
    );
  });

  it("does not rate-limit 20 quick sign-ins from the front end's one IP (Strapi's default: 10 a minute)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      statuses.push((await post(cms!, "/api/auth/local", { identifier: email, password: "wrong-password" })).status);
    }
    expect(statuses).toEqual(Array(20).fill(400));
  });

  it(
    "applies the limit from CMS_AUTH_RATELIMIT_MAX, and a restart leaves the auth settings unchanged",
    async () => {
      await cms!.stop();
      cms = undefined;
      const logBefore = readFileSync(logFile, "utf8");
      // The first start set the reset link URL (a fresh database has none).
      expect(logBefore).toContain(
        `[auth-settings] advanced.email_reset_password: null → "${CLIENT_URL}/reset-password"`,
      );

      cms = await startCms({
        port: PORT,
        dbFile,
        logFile,
        env: {
          CLIENT_URL,
          CMS_MAIL_DIR: mailDir,
          CMS_AUTH_RATELIMIT_MAX: "3",
          CMS_AUTH_RATELIMIT_INTERVAL_MS: "60000",
        },
      });
      const secondStart = readFileSync(logFile, "utf8").slice(logBefore.length);
      expect(secondStart).not.toContain("[auth-settings]");

      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push((await post(cms!, "/api/auth/local", { identifier: email, password: "wrong-password" })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);

      // Email still works after the restart; two messages to the same address: the newest wins.
      const before = Date.now();
      await post(cms!, "/api/auth/forgot-password", { email: "carol.reset@example.com" });
      const mail = await waitForMail(mailDir, "CAROL.RESET@example.com", { after: before });
      expect(mail.resetLink).toMatch(/^http:\/\/127\.0\.0\.1:3999\/reset-password\?code=/);
      const all = await readMails(mailDir);
      expect(all).toHaveLength(2);
      expect(all[1]!.file).toBe(mail.file);
      expect((await waitForMail(mailDir, "carol.reset@example.com")).file).toBe(mail.file);
    },
    TIMEOUT,
  );
});
