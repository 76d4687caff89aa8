import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { projectRoot } from "./app-server.ts";

/**
 * A copy of the project with a fixture laid over it: what a developer's checkout looks like after
 * they followed a guide (docs/add-a-content-type.md). The copy holds the project's files (tracked
 * and new, not ignored ones) and links to its installed packages; the fixture's files are copied
 * over it at the same relative paths, except `<file>.lines`, whose lines go into `<file>` just
 * above the line that holds `marker` (a route list's "your routes go here" comment).
 */
export interface ProjectCopy {
  root: string;
  /** The copy's paths the fixture added or changed, relative, sorted. */
  changed: string[];
  /**
   * `npm run typecheck` in the copy (React Router's route types, then tsc); rejects with its output.
   * Started without waiting: about one core each, this and cmsTests() run side by side.
   */
  typecheck(): Promise<void>;
  /** The CMS's own tests in the copy (`npm test` in cms/); rejects with their output. */
  cmsTests(): Promise<void>;
  /** The site's unit tests in the copy (`npm run test:unit`); rejects with their output. */
  unitTests(): Promise<void>;
  /** `npm run build` in the copy (the production site the tests start). */
  build(): void;
  remove(): void;
}

export function copyProject(fixtureDir: string, { marker }: { marker: string }): ProjectCopy {
  const root = mkdtempSync(path.join(tmpdir(), "project-copy-"));
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: projectRoot,
    encoding: "utf8",
  });
  for (const file of listed.split("\0").filter(Boolean)) {
    const from = path.join(projectRoot, file);
    // A file deleted in the working tree is still listed by --cached.
    try {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      cpSync(from, path.join(root, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  for (const modules of ["node_modules", "cms/node_modules"]) {
    symlinkSync(path.join(projectRoot, modules), path.join(root, modules), "dir");
  }

  const changed: string[] = [];
  for (const file of filesUnder(fixtureDir)) {
    if (file.endsWith(".lines")) {
      const target = file.slice(0, -".lines".length);
      const text = readFileSync(path.join(root, target), "utf8");
      const lines = text.split("\n");
      const at = lines.findIndex((line) => line.includes(marker));
      if (at < 0) throw new Error(`copyProject: ${target} has no line with "${marker}"`);
      const added = readFileSync(path.join(fixtureDir, file), "utf8").replace(/\n$/, "").split("\n");
      lines.splice(at, 0, ...added);
      writeFileSync(path.join(root, target), lines.join("\n"));
      changed.push(target);
    } else {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      cpSync(path.join(fixtureDir, file), path.join(root, file));
      changed.push(file);
    }
  }
  return {
    root,
    changed: changed.sort(),
    typecheck: () => npmInBackground(root, "typecheck"),
    cmsTests: () => npmInBackground(path.join(root, "cms"), "test"),
    unitTests: () => npmInBackground(root, "test:unit"),
    build: () => npm(root, "build"),
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function npm(root: string, script: string): void {
  try {
    execFileSync("npm", ["run", "--silent", script], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run ${script} failed in ${root}:\n${stdout ?? ""}${stderr ?? ""}`, { cause: error });
  }
}

async function npmInBackground(root: string, script: string): Promise<void> {
  try {
    // The CMS's tests print a few hundred kB: more than execFile keeps by default.
    await promisify(execFile)("npm", ["run", "--silent", script], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run ${script} failed in ${root}:\n${stdout ?? ""}${stderr ?? ""}`, { cause: error });
  }
}

function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(dir, relative) : [relative];
  });
}
