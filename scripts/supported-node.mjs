// Node.js 22.22 or later is what the project needs (React Router 8, better-sqlite3 13, vitest 5;
// package.json "engines" names the tested lines, 22.22+ and 24). scripts/install.sh brings
// Node 24 from the npm registry when the machine's is older and links it as
// node_modules/.bin/node: `npm run ...` finds it there, and so does this, for a script started
// as `node scripts/<script>.mjs` by the machine's older `node`.
import { spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Whether this version (`process.versions.node`) can run the project. */
export function isSupportedNode(version) {
  const [major, minor] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 22);
}

/**
 * On a supported Node, returns at once. On an older one, runs the same script again on the
 * project's Node (node_modules/.bin/node) and ends with its exit code; without that Node, says
 * what to do and exits with 1.
 */
export async function runOnSupportedNode(scriptUrl) {
  if (isSupportedNode(process.versions.node)) return;
  const linked = path.join(root, "node_modules/.bin/node");
  if (!existsSync(linked) || realpathSync(linked) === realpathSync(process.execPath)) {
    console.error(
      `Node.js ${process.versions.node} cannot run this project: it needs Node.js 22.22 or later (24 recommended). ` +
        "`npm run quickstart` (scripts/install.sh) installs Node.js 24 from the npm registry into .runtime/ and uses it.",
    );
    process.exit(1);
  }
  const child = spawn(linked, [fileURLToPath(scriptUrl), ...process.argv.slice(2)], { stdio: "inherit" });
  // Ctrl-C reaches the child too (same process group): it stops, then so does this.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  await new Promise(() => {});
}
