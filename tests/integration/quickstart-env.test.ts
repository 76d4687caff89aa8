import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { parseEnv } from "../../app/lib/env.server.ts";
import {
  SHARED_SECRETS,
  ensureQuickstartEnv,
  parseEnvText,
  quickstartEnvironments,
} from "../../scripts/quickstart-env.mjs";

// `npm run quickstart`'s configuration (scripts/quickstart-env.mjs): secrets generated once and
// reused, and two environments that fit together (the site in production with its page cache,
// the CMS revalidating it).
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "quickstart-env-"));
  file = path.join(dir, ".env.quickstart");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("quickstart secrets (.env.quickstart)", () => {
  it("are generated on the first run into a private file and reused unchanged on the next", () => {
    const first = ensureQuickstartEnv(file);
    expect(first.generated).toEqual(SHARED_SECRETS);
    for (const name of SHARED_SECRETS) expect(first.values[name]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(SHARED_SECRETS.map((name) => first.values[name])).size).toBe(SHARED_SECRETS.length);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file, "utf8");

    const second = ensureQuickstartEnv(file);
    expect(second.generated).toEqual([]);
    expect(second.values).toEqual(first.values);
    expect(readFileSync(file, "utf8")).toBe(written);
  });

  it("adds only what a file lacks and keeps the rest, comments and the user's own variables", () => {
    writeFileSync(file, `# mine\nCMS_REVALIDATE_SECRET="${"a".repeat(40)}"\nGITHUB_CLIENT_ID=abc`);
    const { values, generated } = ensureQuickstartEnv(file);
    expect(generated).toEqual(SHARED_SECRETS.filter((name) => name !== "CMS_REVALIDATE_SECRET"));
    expect(values.CMS_REVALIDATE_SECRET).toBe("a".repeat(40));
    expect(values.GITHUB_CLIENT_ID).toBe("abc");
    const text = readFileSync(file, "utf8");
    expect(
      text.startsWith(`# mine\nCMS_REVALIDATE_SECRET="${"a".repeat(40)}"\nGITHUB_CLIENT_ID=abc\nSESSION_AUTH_SECRET=`),
    ).toBe(true);
    expect(parseEnvText(text)).toEqual(values);
  });
});

describe("quickstart environments", () => {
  const environments = (shell: Record<string, string | undefined> = {}) =>
    quickstartEnvironments({
      shell,
      fileValues: ensureQuickstartEnv(file).values,
      sitePort: 3000,
      cmsPort: 1337,
      readonlyToken: "t".repeat(64),
    });

  it("give a valid production configuration of the site, with revalidation on", () => {
    const { site } = environments();
    const env = parseEnv(site);
    expect(env.NODE_ENV).toBe("production");
    expect(env.APP_PUBLIC_URL).toBe("http://localhost:3000");
    expect(env.CMS_URL).toBe("http://127.0.0.1:1337");
    expect(env.CMS_REST_READONLY_API_KEY).toBe("t".repeat(64));
    expect(env.CMS_REVALIDATE_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(env.CMS_CDN_PURGE_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(env.CMS_PREVIEW_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(env.SESSION_AUTH_SECRET).not.toContain("development");
  });

  it("point the CMS's revalidation at the site, with the same secrets", () => {
    const { site, cms, siteUrl } = environments();
    expect(cms.NODE_ENV).toBe("development");
    expect(cms.CLIENT_URL).toBe(siteUrl);
    expect(cms.CLIENT_URL).toBe(site.APP_PUBLIC_URL);
    for (const name of [
      "CMS_REVALIDATE_SECRET",
      "CMS_CDN_PURGE_SECRET",
      "CMS_OAUTH_SYNC_SECRET",
      "CMS_PREVIEW_SECRET",
      "CMS_ACCOUNT_API_SECRET",
    ]) {
      expect(cms[name]).toBeTruthy();
      expect(cms[name]).toBe(site[name]);
    }
  });

  it("let the shell override the file, but not the addresses or modes the script sets", () => {
    const { site, cms } = environments({
      CMS_REVALIDATE_SECRET: "s".repeat(32),
      NODE_ENV: "development",
      CMS_URL: "http://x",
    });
    expect(site.CMS_REVALIDATE_SECRET).toBe("s".repeat(32));
    expect(cms.CMS_REVALIDATE_SECRET).toBe("s".repeat(32));
    expect(site.NODE_ENV).toBe("production");
    expect(site.CMS_URL).toBe("http://127.0.0.1:1337");
  });
});
