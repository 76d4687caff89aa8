import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { adminBuildIsCurrent, adminBuildSources } from "../../scripts/admin-build-sources.mjs";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A CMS folder with one local plugin's admin code, and an admin build made at `builtAt`. */
function cmsWithBuild(builtAt: Date): { root: string; pluginAdminFile: string } {
  const root = mkdtempSync(path.join(tmpdir(), "admin-build-"));
  roots.push(root);
  const pluginAdminFile = path.join(root, "src/plugins/site-cache/admin/src/index.js");
  mkdirSync(path.dirname(pluginAdminFile), { recursive: true });
  mkdirSync(path.join(root, "config"), { recursive: true });
  mkdirSync(path.join(root, "build"), { recursive: true });
  const old = new Date(builtAt.getTime() - 60_000);
  for (const file of [pluginAdminFile, path.join(root, "config/plugins.js"), path.join(root, "package-lock.json")]) {
    writeFileSync(file, "");
    utimesSync(file, old, old);
  }
  writeFileSync(path.join(root, "build/index.html"), "");
  utimesSync(path.join(root, "build/index.html"), builtAt, builtAt);
  return { root, pluginAdminFile };
}

describe("the CMS admin build is rebuilt when its sources change (quick start and tests alike)", () => {
  it("lists the lock file, the plugin list and each local plugin's admin files", () => {
    const { root, pluginAdminFile } = cmsWithBuild(new Date());
    expect(adminBuildSources(root).sort()).toEqual(
      [path.join(root, "config/plugins.js"), path.join(root, "package-lock.json"), pluginAdminFile].sort(),
    );
  });

  it("is current after the build, outdated once a plugin's admin code is edited, missing without a build", () => {
    const { root, pluginAdminFile } = cmsWithBuild(new Date());
    expect(adminBuildIsCurrent(root)).toBe(true);
    const later = new Date(Date.now() + 60_000);
    utimesSync(pluginAdminFile, later, later);
    expect(adminBuildIsCurrent(root)).toBe(false);
    rmSync(path.join(root, "build"), { recursive: true });
    expect(adminBuildIsCurrent(root)).toBe(false);
  });
});
