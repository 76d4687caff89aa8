/**
 * Publish-to-visible (issue 25): `npm run bench:cms-cluster`. Prints figures; asserts nothing.
 *
 * An editor's publish through the CMS's balancer, then every site instance asked (each on its
 * own, every 10 ms) until it serves the new title: the time from the publish request to the
 * last instance showing it, BENCH_PUBLISHES times (default 20), for two set-ups started by
 * tests/support/cms-cluster.ts, one after the other:
 * - one instance: one CMS (SQLite) and one site;
 * - the cluster: two CMS instances on PostgreSQL behind a balancer, three sites sharing Redis
 *   behind another (the CMS revalidates one of them; Redis takes it to the others).
 * Each round first makes the page a cached HIT on every site, so only the revalidation can
 * bring the new title.
 */
import { buildSite } from "./support.ts";
import { startCmsCluster, type CmsCluster } from "../tests/support/cms-cluster.ts";

const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 20);
const PAGES = "/content-manager/collection-types/api::page.page";

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function adminToken(cluster: CmsCluster): Promise<string> {
  const response = await fetch(`${cluster.cmsBalancer.url}/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: "Admin12345" }),
  });
  if (!response.ok) throw new Error(`admin login: ${response.status}`);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

async function waitUntilShown(url: string, title: string, deadline: number) {
  for (;;) {
    const html = await (await fetch(url)).text();
    if (html.includes(title)) return Date.now();
    if (Date.now() > deadline) throw new Error(`${url} never showed "${title}"`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function measure(label: string, cluster: CmsCluster) {
  const token = await adminToken(cluster);
  const admin = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${cluster.cmsBalancer.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { data: { documentId: string } };
  };
  const { data } = await admin("POST", `${PAGES}?locale=en`, { title: "Bench page", slug: "bench-visible" });
  await admin("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
  const pageUrls = cluster.sites.map((site) => `${site.url}/bench-visible`);
  for (const url of pageUrls) await waitUntilShown(url, "Bench page", Date.now() + 30_000);

  const visible: number[] = [];
  const answered: number[] = [];
  for (let round = 1; round <= PUBLISHES; round++) {
    // A HIT everywhere first (the cache answers x-cache: HIT).
    for (const url of pageUrls) {
      const deadline = Date.now() + 10_000;
      for (let cache = ""; cache !== "HIT"; await new Promise((resolve) => setTimeout(resolve, 10))) {
        cache = (await fetch(url)).headers.get("x-cache") ?? "";
        if (Date.now() > deadline) throw new Error(`${url} is not cached (x-cache: ${cache})`);
      }
    }
    const title = `Bench round ${round}`;
    const started = Date.now();
    const publish = admin("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, { title }).then(() =>
      answered.push(Date.now() - started),
    );
    const shown = await Promise.all(pageUrls.map((url) => waitUntilShown(url, title, started + 30_000)));
    await publish;
    visible.push(Math.max(...shown) - started);
  }
  const row = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${percentile(sorted, 50)} | ${percentile(sorted, 95)} | ${sorted.at(-1)}`;
  };
  console.log(`| ${label} | publish answered | ${row(answered)} |`);
  console.log(`| ${label} | visible on every site | ${row(visible)} |`);
}

async function main() {
  buildSite();
  console.log(`Publish to visible, ${PUBLISHES} publishes, ms\n`);
  console.log("| set-up | time to | p50 | p95 | max |");
  console.log("|---|---|---:|---:|---:|");
  const setups = [
    { label: "1 CMS (SQLite), 1 site", options: { name: "bench-one", cms: 1, sites: 1, postgres: false } },
    { label: "2 CMS (PostgreSQL), 3 sites (Redis)", options: { name: "bench-cluster", cms: 2, sites: 3 } },
  ];
  for (const { label, options } of setups) {
    const cluster = await startCmsCluster(options);
    try {
      await measure(label, cluster);
    } finally {
      await cluster.stop();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
