import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { projectRoot, stopProcessGroup } from "./app-server.ts";

/**
 * docs/varnish/default.vcl for these backends: one port as it is; several behind a round-robin
 * director (several site instances sharing Redis behind one CDN).
 */
export function vclFor(backendPorts: number[]): string {
  const vcl = readFileSync(path.join(projectRoot, "docs/varnish/default.vcl"), "utf8");
  const [first] = backendPorts;
  if (first === undefined) throw new Error("vclFor: no backend");
  if (backendPorts.length === 1) return vcl.replace("BACKEND_PORT", String(first));
  const backends = backendPorts
    .map((port, index) => `backend site${index} {\n  .host = "127.0.0.1";\n  .port = "${port}";\n}`)
    .join("\n\n");
  const director = [
    "import directors;",
    "",
    backends,
    "",
    "sub vcl_init {",
    "  new sites = directors.round_robin();",
    ...backendPorts.map((_, index) => `  sites.add_backend(site${index});`),
    "}",
    "",
    // Before the file's own vcl_recv (subroutines of one name run in the order they appear).
    "sub vcl_recv {",
    "  set req.backend_hint = sites.backend();",
    "}",
  ].join("\n");
  return vcl.replace(/backend default \{[^}]*\}/, director);
}

/** A real Varnish (Debian's package) with docs/varnish/default.vcl, in front of one backend port or several. */
export async function startVarnish(options: { port: number; backendPort: number | number[] }) {
  if (!existsSync("/usr/sbin/varnishd")) {
    throw new Error("varnishd is missing: run scripts/install-system-deps.sh (npm run test:all does).");
  }
  const dir = mkdtempSync(path.join(tmpdir(), "varnish-"));
  const vcl = path.join(dir, "default.vcl");
  writeFileSync(vcl, vclFor([options.backendPort].flat()));
  let output = "";
  const child: ChildProcess = spawn(
    "/usr/sbin/varnishd",
    [
      "-F",
      "-j",
      "none",
      "-n",
      path.join(dir, "work"),
      "-a",
      `127.0.0.1:${options.port}`,
      "-f",
      vcl,
      "-s",
      "malloc,32m",
      // Varnish closes an idle client connection after 5 s by default, and undici (the tests' fetch)
      // reuses one for up to 4 s: a stalled Varnish could close the socket a request was just sent
      // on (ECONNRESET). Longer than any client keeps one, as the site and the CMS do (65 s).
      "-p",
      "timeout_idle=65",
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`varnishd exited:\n${output}`);
    try {
      await fetch(`${url}/`, { method: "HEAD" });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`varnishd did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { url, stop: () => stopProcessGroup(child), output: () => output };
}
