import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { describe, expect, it } from "vitest";

import { isSupportedNode } from "../../scripts/supported-node.mjs";
import { projectRoot } from "../support/app-server.ts";

const cmsRoot = path.join(projectRoot, "cms");
const enginesOf = (dir: string) =>
  (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
const machineNode = "/usr/bin/node";
const machineNodeIsOld =
  existsSync(machineNode) &&
  !isSupportedNode(execFileSync(machineNode, ["-p", "process.versions.node"]).toString().trim());

describe("the Node.js the project runs on", () => {
  it("runs the tests on Node.js 22.22 or later, the versions both package.json files state", () => {
    expect(isSupportedNode(process.versions.node), process.versions.node).toBe(true);
    expect(enginesOf(projectRoot)).toBe("^22.22.0 || ^24.0.0");
    expect(enginesOf(cmsRoot)).toBe(enginesOf(projectRoot));
  });

  it("the Node that runs Strapi (the tests' own: tests/support/cms-server.ts) loads the CMS's better-sqlite3", () => {
    const probe =
      "const Database = require('better-sqlite3'); const db = new Database(':memory:');" +
      "console.log(JSON.stringify({ node: process.versions.node, sqlite: db.prepare('select sqlite_version() as v').get().v }))";
    const loaded = JSON.parse(execFileSync(process.execPath, ["-e", probe], { cwd: cmsRoot, encoding: "utf8" })) as {
      node: string;
      sqlite: string;
    };
    expect(loaded.node).toBe(process.versions.node);
    expect(loaded.sqlite).toMatch(/^3\.\d+\.\d+$/);
  });

  it("`node` on an npm script's PATH is a supported one, so tools started through `#!/usr/bin/env node` (strapi, tsx) run on it", () => {
    const version = execFileSync("node", ["-p", "process.versions.node"], { cwd: cmsRoot, encoding: "utf8" }).trim();
    expect(isSupportedNode(version), version).toBe(true);
  });

  it.runIf(machineNodeIsOld && existsSync(path.join(projectRoot, "node_modules/.bin/node")))(
    "a script started by the machine's older node (`node scripts/quickstart.mjs`) runs again on the project's Node",
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), "node-runtime-"));
      try {
        const script = path.join(dir, "probe.mjs");
        const guard = pathToFileURL(path.join(projectRoot, "scripts/supported-node.mjs")).href;
        writeFileSync(
          script,
          `import { runOnSupportedNode } from ${JSON.stringify(guard)};\n` +
            "await runOnSupportedNode(import.meta.url);\nconsole.log(process.versions.node, process.argv[2]);\n",
        );
        const printed = execFileSync(machineNode, [script, "passed-on"], { encoding: "utf8" }).trim();
        const [version, argument] = printed.split(" ");
        expect(isSupportedNode(version!), printed).toBe(true);
        expect(argument).toBe("passed-on");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
