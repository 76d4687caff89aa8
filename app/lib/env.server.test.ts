import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { EnvError, parseEnv } from "./env.server.ts";

const production = {
  NODE_ENV: "production",
  APP_PUBLIC_URL: "https://www.example.com/",
  CMS_URL: "https://cms.example.com",
  CMS_REST_READONLY_API_KEY: "a".repeat(64),
  SESSION_AUTH_SECRET: "s".repeat(40),
};

function problemsOf(source: NodeJS.ProcessEnv): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  throw new Error("expected parseEnv to fail");
}

describe("environment validation", () => {
  it("accepts a complete production environment and fills the optional defaults", () => {
    const env = parseEnv(production);
    expect(env).toMatchObject({
      NODE_ENV: "production",
      PORT: 3000,
      HOST: "0.0.0.0",
      APP_PUBLIC_URL: "https://www.example.com",
      CMS_URL: "https://cms.example.com",
      CMS_FETCH_TIMEOUT_MS: 5000,
      APP_LOCALES: ["en", "de"],
      APP_DEFAULT_LOCALE: "en",
    });
  });

  it("in production lists every missing required variable in one message", () => {
    const source = { NODE_ENV: "production", APP_PUBLIC_URL: "https://www.example.com" };
    expect(problemsOf(source)).toEqual([
      "CMS_URL: is missing (base URL of the Strapi CMS)",
      "CMS_REST_READONLY_API_KEY: is missing (read-only Strapi API token for public content)",
      "SESSION_AUTH_SECRET: is missing (secret that encrypts session cookies)",
    ]);
    expect(() => parseEnv(source)).toThrow(/Invalid environment configuration:\n {2}- CMS_URL: is missing/);
  });

  it("treats an empty variable as missing", () => {
    expect(problemsOf({ ...production, CMS_URL: "" })).toEqual(["CMS_URL: is missing (base URL of the Strapi CMS)"]);
  });

  it("says what is wrong with malformed values, quoting them but never a secret", () => {
    const problems = problemsOf({
      ...production,
      PORT: "eighty",
      CMS_URL: "ftp://cms.example.com",
      CMS_REST_READONLY_API_KEY: "short-secret",
      APP_LOCALES: "en,de",
      APP_DEFAULT_LOCALE: "fr",
    });
    expect(problems).toContain('PORT: must be a whole number (got "eighty")');
    expect(problems).toContain(
      'CMS_URL: must be an http(s) URL (the CMS base URL, e.g. https://cms.example.com) (got "ftp://cms.example.com")',
    );
    expect(problems).toContain("CMS_REST_READONLY_API_KEY: looks too short for a Strapi API token");
    expect(problems).toContain('APP_DEFAULT_LOCALE: must be one of APP_LOCALES (got "fr")');
    expect(problems.join("\n")).not.toContain("short-secret");
  });

  it("refuses TRUST_PROXY=true (clients would choose their own IP), accepts hop counts and addresses", () => {
    expect(problemsOf({ ...production, TRUST_PROXY: "true" }).join("\n")).toMatch(
      /TRUST_PROXY: must not be true .*hop count/,
    );
    expect(parseEnv({ ...production, TRUST_PROXY: "1" }).TRUST_PROXY).toBe("1");
    expect(parseEnv({ ...production, TRUST_PROXY: "loopback,10.0.0.0/8" }).TRUST_PROXY).toBe("loopback,10.0.0.0/8");
  });

  it("reads the bot check's minimum fill time: 1500 ms unless set, 0 allowed, never negative or over a minute", () => {
    expect(parseEnv(production).AUTH_FORM_MIN_FILL_MS).toBe(1500);
    expect(parseEnv({ ...production, AUTH_FORM_MIN_FILL_MS: "0" }).AUTH_FORM_MIN_FILL_MS).toBe(0);
    expect(problemsOf({ ...production, AUTH_FORM_MIN_FILL_MS: "-1" }).join("\n")).toMatch(/AUTH_FORM_MIN_FILL_MS: /);
    expect(problemsOf({ ...production, AUTH_FORM_MIN_FILL_MS: "90000" }).join("\n")).toMatch(/at most 60000 ms/);
    expect(problemsOf({ ...production, AUTH_FORM_MIN_FILL_MS: "soon" }).join("\n")).toMatch(/whole number/);
  });

  it("reads CMS_ACCOUNT_API_SECRET as optional, 16+ characters, never quoting it", () => {
    expect(parseEnv(production).CMS_ACCOUNT_API_SECRET).toBeUndefined();
    expect(parseEnv({ ...production, CMS_ACCOUNT_API_SECRET: "k".repeat(32) }).CMS_ACCOUNT_API_SECRET).toBe(
      "k".repeat(32),
    );
    const problems = problemsOf({ ...production, CMS_ACCOUNT_API_SECRET: "short-one" }).join("\n");
    expect(problems).toContain("CMS_ACCOUNT_API_SECRET: must be at least 16 characters");
    expect(problems).not.toContain("short-one");
  });

  it("reads the CDN's lifetime, purge rate, tags per request and soft purges (decision 0028)", () => {
    expect(parseEnv(production)).toMatchObject({ CDN_PROVIDER: "none" });
    expect(parseEnv(production).CDN_S_MAXAGE).toBeUndefined();
    expect(
      parseEnv({
        ...production,
        CDN_S_MAXAGE: "3600",
        CDN_PURGE_PER_MINUTE: "0",
        CDN_PURGE_MAX_TAGS: "30",
        CDN_SOFT_PURGE: "true",
      }),
    ).toMatchObject({ CDN_S_MAXAGE: 3600, CDN_PURGE_PER_MINUTE: 0, CDN_PURGE_MAX_TAGS: 30, CDN_SOFT_PURGE: "true" });
    expect(
      problemsOf({
        ...production,
        CDN_S_MAXAGE: "a day",
        CDN_PURGE_PER_MINUTE: "-1",
        CDN_PURGE_MAX_TAGS: "5000",
        CDN_SOFT_PURGE: "yes",
      }),
    ).toEqual([
      expect.stringMatching(/^CDN_S_MAXAGE: must be a whole number of seconds/),
      expect.stringMatching(/^CDN_PURGE_PER_MINUTE: must be at least 0/),
      expect.stringMatching(/^CDN_PURGE_MAX_TAGS: must be at most 1000/),
      expect.stringMatching(/^CDN_SOFT_PURGE: must be true or false/),
    ]);
  });

  it("in development works with no variables, reading the token the CMS seed wrote", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "env-test-"));
    const tokenFile = path.join(dir, "token");
    writeFileSync(tokenFile, `${"t".repeat(40)}\n`);
    const env = parseEnv({ NODE_ENV: "development", CMS_READONLY_TOKEN_FILE: tokenFile });
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: "localhost",
      APP_PUBLIC_URL: "http://localhost:3000",
      CMS_URL: "http://127.0.0.1:1337",
      CMS_REST_READONLY_API_KEY: "t".repeat(40),
    });
    expect(parseEnv({ NODE_ENV: "development", PORT: "4000", CMS_READONLY_TOKEN_FILE: tokenFile }).APP_PUBLIC_URL).toBe(
      "http://localhost:4000",
    );
    rmSync(dir, { recursive: true });
  });

  it("in development explains where the token comes from when the CMS has not written it yet", () => {
    const problems = problemsOf({ NODE_ENV: "development", CMS_READONLY_TOKEN_FILE: "/nonexistent/token" });
    expect(problems[0]).toBe("CMS_REST_READONLY_API_KEY: is missing (read-only Strapi API token for public content)");
    expect(problems[1]).toMatch(/read from \/nonexistent\/token, which the CMS seed writes/);
  });
});
