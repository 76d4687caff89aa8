import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { projectRoot } from "./app-server.ts";

const run = promisify(execFile);

/**
 * `npm pack` of a workspace package (packages/<name>) into `into`, as it would be published: its
 * `prepare` builds what it ships first. Resolves with the tarball's absolute path.
 */
export async function packWorkspacePackage(dir: string, into: string): Promise<string> {
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", into], {
    cwd: path.resolve(projectRoot, dir),
    maxBuffer: 16 * 1024 * 1024,
  });
  // Lifecycle output (the build) may come first; the JSON array is the end of stdout.
  const [packed] = JSON.parse(stdout.slice(stdout.lastIndexOf("\n[") + 1)) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack in ${dir} made no tarball:\n${stdout}`);
  return path.join(into, packed.filename);
}
