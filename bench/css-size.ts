/**
 * The CSS each page type downloads, raw and compressed: `npm run bench:css` (builds the site first
 * unless BENCH_SITE_BUILT=1). No server needed: a page's style sheets are the root's (the one of
 * app/components/page-assets.tsx, named in the root's client module: linked on the auth pages,
 * inline on content pages, decision 0035) plus any its route
 * modules import (their `css` in React Router's client manifest). Compressed sizes as the site
 * serves them (server/index.ts: `compression()`, gzip level 6, brotli quality 4) and at brotli's
 * maximum (11, for a CDN or pre-compressed assets).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve(import.meta.dirname, "..");
const assets = path.join(root, "build/client/assets");

if (process.env.BENCH_SITE_BUILT !== "1")
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "ignore" });

const files = readdirSync(assets);
const fileOf = (prefix: string) => {
  const name = files.find((file) => file.startsWith(prefix) && file.endsWith(".js"));
  if (!name) throw new Error(`no ${prefix}*.js in ${assets}`);
  return readFileSync(path.join(assets, name), "utf8");
};
const cssIn = (source: string) => [...new Set(source.match(/\/assets\/[\w.-]+\.css/g) ?? [])];

interface ManifestRoute {
  id: string;
  parentId?: string;
  css?: string[];
}
const manifestSource = fileOf("manifest-");
const manifest = JSON.parse(manifestSource.slice(manifestSource.indexOf("{"), manifestSource.lastIndexOf("}") + 1)) as {
  routes: Record<string, ManifestRoute>;
};
const rootCss = cssIn(fileOf("root-"));

/** The style sheets of a route: the root's `links`, and every route's own css from the root down. */
function cssOf(routeId: string): string[] {
  const chain: ManifestRoute[] = [];
  for (
    let route: ManifestRoute | undefined = manifest.routes[routeId];
    route;
    route = manifest.routes[route.parentId ?? ""]
  )
    chain.unshift(route);
  return [...new Set([...rootCss, ...chain.flatMap((route) => route.css ?? [])])];
}

function sizes(hrefs: string[]) {
  const body = Buffer.concat(hrefs.map((href) => readFileSync(path.join(root, "build/client", href))));
  const brotli = (quality: number) =>
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }).length;
  return { raw: body.length, gzip: gzipSync(body, { level: 6 }).length, br4: brotli(4), br11: brotli(11) };
}

const kB = (bytes: number) => `${bytes.toLocaleString("en")} B`;
// Pages only (not the API, sitemap, robots or uploads routes); a `-localized` route is its page under
// a locale prefix, with the same modules.
const pages = Object.values(manifest.routes).filter(
  (route) => route.id !== "root" && !/api\.|\.txt|\.xml|\$part|uploads|-localized$/.test(route.id),
);
console.log("| route | style sheets | raw | gzip (6) | brotli (4, served) | brotli (11) |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const route of pages) {
  const hrefs = cssOf(route.id);
  const { raw, gzip, br4, br11 } = sizes(hrefs);
  console.log(`| ${route.id} | ${hrefs.length} | ${kB(raw)} | ${kB(gzip)} | ${kB(br4)} | ${kB(br11)} |`);
}
