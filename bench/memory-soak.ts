/**
 * Memory soak (issue 7): `npm run bench:memory`. Prints figures; asserts nothing.
 * Pushes 100,000 distinct pages of ~20 KB (about 2 GB in all) through the page cache with its
 * default 48 MiB page share (¾ of PAGE_CACHE_MAX_BYTES = 64 MiB), as the server does, and
 * prints the process's resident memory as it goes: it must level off, not grow with the pages.
 */
import { randomBytes } from "node:crypto";

import { Invalidations, IsrCache, MemoryStore, type Rendered } from "@cms-site/page-cache";

const PAGES = Number(process.env.BENCH_PAGES ?? 100_000);
const PAGE_BYTES = 20 * 1024;
const BOUND = 64 * 1024 * 1024 * 0.75;

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
let evictions = 0;
const store = new MemoryStore<Buffer>(BOUND, () => evictions++);
const cache = new IsrCache<Buffer>({ store, invalidations: new Invalidations() });

console.log(
  `${PAGES.toLocaleString("en")} distinct pages of ${PAGE_BYTES / 1024} KiB through a ${mib(BOUND)} MiB cache\n`,
);
console.log("| pages | cached | cache MiB | evictions | RSS MiB | heap used MiB |");
console.log("|---:|---:|---:|---:|---:|---:|");
const start = process.memoryUsage().rss;
for (let page = 1; page <= PAGES; page++) {
  const body = randomBytes(PAGE_BYTES);
  await cache.get(`/p/${page}`, `/p/${page}`, async (): Promise<Rendered<Buffer>> => ({
    value: body,
    cacheable: true,
    tags: ["cms:api::navbar.navbar"],
    revalidate: 300,
    size: body.length + 512,
  }));
  if (page % (PAGES / 10) === 0) {
    const memory = process.memoryUsage();
    console.log(
      `| ${page.toLocaleString("en")} | ${store.count} | ${mib(store.byteSize)} | ${evictions.toLocaleString("en")} ` +
        `| ${mib(memory.rss)} | ${mib(memory.heapUsed)} |`,
    );
  }
}
console.log(
  `\nRSS grew by ${mib(process.memoryUsage().rss - start)} MiB ` +
    `while ${mib(PAGES * PAGE_BYTES)} MiB of pages went through.`,
);
