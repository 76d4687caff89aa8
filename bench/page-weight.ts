/**
 * What a visitor downloads for a page, and what the page cache holds for it, per build:
 * `npx tsx bench/page-weight.ts <name>=<root> ...`, each root a directory with a built site
 * (`build/`, `node_modules`; `.` for this one). Starts the real Strapi (seeded, a copy of the test
 * template: tests/support/cms-server.ts) and each build against it, asks each for the same pages
 * (`/`, a CMS page, a page of sections, the blog, an article), twice (MISS, then the HIT that is
 * measured), and prints per page the HTML's bytes raw and as sent (br and gzip, as `compression()`
 * and the page cache send them), the bytes of the `<script>`, `modulepreload` and stylesheet
 * assets it names (br, as sent; once per visit: the browser keeps them), and the page cache's size
 * after those pages (`isr_cache_bytes` of /metrics). Used for decision 0035 (bench/README.md,
 * "No JavaScript on content pages").
 */
import { readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, constants } from "node:zlib";

import getPort from "../tests/support/free-port.ts";

import { startApp } from "../tests/support/app-server.ts";
import { startCms } from "../tests/support/cms-server.ts";

const PAGES = ["/", "/company", "/company/careers", "/blog", "/blog/berlin-office"];
const METRICS_SECRET = "bench-metrics-secret-0123456789";

const variants = process.argv.slice(2).map((arg) => {
  const [name, root] = arg.split("=") as [string, string];
  return { name, root: path.resolve(root) };
});
if (variants.length === 0) throw new Error("usage: tsx bench/page-weight.ts before=<root> after=<root>");

const dir = mkdtempSync(path.join(tmpdir(), "page-weight-"));
const cms = await startCms({ port: await getPort(), dbFile: path.join(dir, "cms.db"), fresh: true, env: {} });
try {
  for (const variant of variants) {
    const app = await startApp({
      port: await getPort(),
      root: variant.root,
      env: { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: cms.token, METRICS_SECRET },
    });
    try {
      console.log(`\n${variant.name} (${variant.root})`);
      console.log("page | HTML raw | HTML br | HTML gzip | scripts+preloads br | stylesheet br");
      for (const page of PAGES) {
        await fetch(`${app.url}${page}`).then((response) => response.arrayBuffer());
        const size = async (encoding: string) => {
          const response = await fetch(`${app.url}${page}`, { headers: { "accept-encoding": encoding } });
          const body = Buffer.from(await response.arrayBuffer());
          return {
            body,
            cache: response.headers.get("x-cache"),
            sent: Number(response.headers.get("content-length") ?? body.length),
          };
        };
        const raw = await size("identity");
        // fetch decodes the body; content-length is what went over the wire.
        const [br, gzip] = [await size("br"), await size("gzip")];
        const html = raw.body.toString();
        // Every asset the page names (modulepreloads, the module script's imports, the stylesheet), once.
        const assets = (extension: string) =>
          [...new Set(html.match(new RegExp(`/assets/[\\w.-]+\\.${extension}`, "g")) ?? [])].reduce(
            (sum, href) => sum + assetBr(variant.root, href),
            0,
          );
        const [scripts, styles] = [assets("js"), assets("css")];
        console.log(`${page} (${raw.cache}) | ${raw.body.length} | ${br.sent} | ${gzip.sent} | ${scripts} | ${styles}`);
      }
      const metrics = await (
        await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_SECRET}` } })
      ).text();
      console.log(`isr_cache_bytes after these pages: ${/^isr_cache_bytes (\d+)/m.exec(metrics)?.[1] ?? "?"}`);
    } finally {
      await app.stop();
    }
  }
} finally {
  await cms.stop();
}

/** A built asset's size as brotli (quality 4, as `compression()` sends it). */
function assetBr(root: string, href: string): number {
  const file = readFileSync(path.join(root, "build/client", href));
  return brotliCompressSync(file, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }).length;
}
