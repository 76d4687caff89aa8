import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ENV_VARIABLES } from "./env.server.ts";

// `.env.example` (the site) and `cms/.env.example` (the CMS) list every variable the code reads, and
// nothing more, so a new variable cannot go undocumented and a removed one cannot linger.
// docs/configuration.md says what each does.

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The names an .env.example lists: `NAME=` lines, commented out (`# NAME=`) or not. */
function listed(file: string): string[] {
  const names = [...readFileSync(path.join(ROOT, file), "utf8").matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)];
  return [...new Set(names.map((match) => match[1]!))].sort();
}

function sourceFiles(dir: string, ext: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (name === "node_modules" || name === "tests" || name === "admin" || name.endsWith(".test.js")) return [];
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative, ext);
    return ext.test(name) ? [relative] : [];
  });
}

/** What the site's server code reads from the environment besides the schema (app/, server/). */
function siteReads(): string[] {
  const files = [...sourceFiles("app", /\.tsx?$/), ...sourceFiles("server", /\.ts$/)].filter(
    (file) => !/\.test\.tsx?$/.test(file),
  );
  return files.flatMap((file) =>
    [...readFileSync(path.join(ROOT, file), "utf8").matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!),
  );
}

/**
 * What the CMS reads: Strapi's `env(...)` helpers in cms/config (also through the config's own
 * wrappers, which take the name first: `duration("CMS_…", 5000)`), `process.env.NAME` in its code,
 * and the secrets cms/scripts/ensure-env.js generates.
 */
function cmsReads(): string[] {
  const names: string[] = [];
  for (const file of sourceFiles("cms/config", /\.js$/)) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    for (const match of text.matchAll(/\b[a-zA-Z]+(?:\.[a-z]+)?\(\s*"([A-Z][A-Z0-9_]*)"/g)) names.push(match[1]!);
  }
  for (const file of [
    ...sourceFiles("cms/src", /\.js$/),
    ...sourceFiles("cms/config", /\.js$/),
    ...sourceFiles("cms/scripts", /\.js$/),
  ]) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    for (const match of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.push(match[1]!);
  }
  const secrets = /const SECRETS = \{([^}]*)\}/.exec(
    readFileSync(path.join(ROOT, "cms/scripts/ensure-env.js"), "utf8"),
  );
  for (const match of secrets?.[1]?.matchAll(/^\s*([A-Z][A-Z0-9_]*):/gm) ?? []) names.push(match[1]!);
  return names;
}

const unique = (names: Iterable<string>) => [...new Set(names)].sort();

describe(".env.example files", () => {
  it("the site's lists exactly the variables the site reads", () => {
    expect(listed(".env.example")).toEqual(unique([...ENV_VARIABLES, ...siteReads()]));
  });

  it("the CMS's lists exactly the variables the CMS reads", () => {
    const reads = unique(cmsReads());
    // The scan itself must see the CMS's reads of every kind, or an empty list would pass.
    expect(reads).toEqual(expect.arrayContaining(["APP_KEYS", "CMS_REVALIDATE_TIMEOUT_MS", "CMS_SEED_DEMO", "HOST"]));
    expect(listed("cms/.env.example")).toEqual(reads);
  });

  it("docs/configuration.md describes every variable of both", () => {
    const doc = readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8");
    const named = (name: string) => doc.includes(`\`${name}\``) || doc.includes(`\`${name} `);
    const all = unique([...listed(".env.example"), ...listed("cms/.env.example")]);
    expect(all.filter((name) => !named(name))).toEqual([]);
  });
});
