import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { getPage, postRevalidation } from "../support/site-requests.ts";
import { StandInCms } from "../support/stand-in-cms.ts";
import { until } from "../support/wait.ts";

// The ISR page cache over HTTP: the production build against a stand-in CMS whose content
// the tests change, revalidating through /api/cms-revalidate as the CMS would.
const SECRET = "revalidate-secret-0123456789";
const METRICS = "metrics-secret-0123456789";
const cms = new StandInCms(await getPort());
let app: AppHandle;

beforeAll(async () => {
  await cms.start();
  for (const [fullPath, title] of [
    ["/", "Home"],
    ["/company", "Company"],
    ["/positions", "Jobs"],
    ["/positions/a", "Job A"],
    ["/careers", "Careers"],
    ["/stale-if-error", "Before the outage"],
  ] as const) {
    cms.setPage({ fullPath, title });
  }
  app = await startApp({
    port: await getPort(),
    env: {
      CMS_URL: cms.url,
      CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789",
      CMS_REVALIDATE_SECRET: SECRET,
      METRICS_SECRET: METRICS,
      CMS_FETCH_TIMEOUT_MS: "1000",
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await cms.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => getPage(app.url, path, headers);
const revalidate = (next: { fullPaths?: string[]; tags?: string[] }) => postRevalidation(app.url, SECRET, next);

/** Until the page is a HIT containing `text` (the background regeneration has landed). */
const eventuallyHit = (path: string, text: string, timeoutMs = 5_000) =>
  until(
    `${path} to be a HIT with "${text}"`,
    () => get(path),
    (result) => result.cache === "HIT" && result.text.includes(text),
    { timeoutMs },
  );

describe("the page cache", () => {
  it("serves a page MISS then HIT, with browser and CDN cache headers and its tags", async () => {
    const first = await get("/company");
    expect(first.status).toBe(200);
    expect(first.cache).toBe("MISS");
    const second = await get("/company");
    expect(second.cache).toBe("HIT");
    expect(second.text).toBe(first.text);
    const headers = second.response.headers;
    expect(headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(headers.get("cdn-cache-control")).toBe("public, s-maxage=120, stale-while-revalidate=86400");
    expect(headers.get("cache-tag")?.split(",").sort()).toEqual(
      // What the render read: the navbar, the footer, the page's type and document (docs/architecture.md,
      // "What a render depends on"); no list (the page was looked up at its path).
      [
        "cms:api::footer.footer",
        "cms:api::navbar.navbar",
        "cms:api::page.page",
        "cms:api::page.page:doc-/company",
        "path:/company",
      ].sort(),
    );
    expect(headers.get("surrogate-key")?.split(" ").sort()).toEqual(headers.get("cache-tag")?.split(",").sort());
  });

  it("a HIT is sent pre-compressed to browsers that accept it", async () => {
    await get("/positions");
    const br = await fetch(`${app.url}/positions`, { headers: { "accept-encoding": "br, gzip" } });
    expect(br.headers.get("x-cache")).toBe("HIT");
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(await br.text()).toContain("Jobs");
  });

  it("after a path is revalidated: STALE with the old content at once, then the new content", async () => {
    await get("/careers");
    cms.setPage({ fullPath: "/careers", title: "Careers, renamed" });
    expect((await get("/careers")).text).not.toContain("Careers, renamed");

    await revalidate({ fullPaths: ["/careers"] });
    const stale = await get("/careers");
    expect(stale.cache).toBe("STALE");
    expect(stale.text).not.toContain("Careers, renamed");
    await eventuallyHit("/careers", "Careers, renamed");
    // The locale-prefixed URL is the same page and was revalidated too.
    expect((await get("/en/careers")).text).toContain("Careers, renamed");
  });

  it("revalidating the navbar tag refreshes every page that rendered it", async () => {
    await get("/company");
    await get("/positions");
    cms.navbar = [{ label: "New link", url: "/new" }];
    await revalidate({ tags: ["cms:api::navbar.navbar"] });
    expect((await get("/company")).cache).toBe("STALE");
    expect((await get("/positions")).cache).toBe("STALE");
    await eventuallyHit("/company", "New link");
    await eventuallyHit("/positions", "New link");
  });

  it("a wildcard marks every page below it stale, and nothing else", async () => {
    await get("/positions/a");
    await get("/company");
    await eventuallyHit("/positions/a", "Job A");
    await eventuallyHit("/company", "Company");
    await revalidate({ fullPaths: ["/positions/*"] });
    expect((await get("/positions/a")).cache).toBe("STALE");
    expect((await get("/company")).cache).toBe("HIT");
  });

  it("a path that was a 404 shows the new page once it is published and revalidated", async () => {
    expect(await get("/brand-new")).toMatchObject({ status: 404, cache: "MISS" });
    expect(await get("/brand-new")).toMatchObject({ status: 404, cache: "HIT" });
    cms.setPage({ fullPath: "/brand-new", title: "Brand new page" });
    await revalidate({ fullPaths: ["/brand-new"] });
    // A cached 404 hit by a revalidation is expired, not stale (issue 30, point 6): never 404 STALE.
    const next = await get("/brand-new");
    expect(next).toMatchObject({ status: 200, cache: "MISS" });
    expect(next.text).toContain("Brand new page");
    expect(await get("/brand-new")).toMatchObject({ status: 200, cache: "HIT" });
  });

  it("client-side navigation data (.data) is cached too, and revalidating the path covers it", async () => {
    const first = await get("/company.data");
    expect(first.status).toBe(200);
    expect(first.response.headers.get("x-powered-by")).toBeNull();
    expect(["MISS", "HIT"]).toContain(first.cache);
    expect((await get("/company.data")).cache).toBe("HIT");
    await revalidate({ fullPaths: ["/company"] });
    expect((await get("/company.data")).cache).toBe("STALE");
  });

  it("stale-if-error: while the CMS fails, the stale page keeps being served; it recovers after", async () => {
    await eventuallyHit("/stale-if-error", "Before the outage");
    cms.mode = "error";
    const from = app.output().length;
    await revalidate({ fullPaths: ["/stale-if-error"] });
    const stale = { status: 200, cache: "STALE" };
    expect(await get("/stale-if-error")).toMatchObject(stale);
    // That request's background regeneration has failed (its log line): the stale page is still served.
    await until(
      "the regeneration to fail",
      () => app.output().slice(from),
      (output) => output.includes("[cache] regenerating /stale-if-error failed; serving the stale page"),
    );
    const during = await get("/stale-if-error");
    expect(during).toMatchObject(stale);
    expect(during.text).toContain("Before the outage");
    cms.setPage({ fullPath: "/stale-if-error", title: "After the outage" });
    cms.mode = "healthy";
    // Retried with backoff (1 s, then 2 s...): within a few seconds the new page is in.
    await eventuallyHit("/stale-if-error", "After the outage", 8_000);
  }, 20_000);

  it("exposes its counters in Prometheus format, only with the metrics secret", async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    const response = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const name of ["hits", "stale", "misses", "bypasses", "regenerations", "regeneration_failures", "evictions"]) {
      expect(text).toMatch(new RegExp(`^isr_cache_${name}_total \\d+$`, "m"));
    }
    expect(Number(/^isr_cache_regeneration_failures_total (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/^isr_cache_bytes (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
    // The process's own metrics too (prom-client's defaults).
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds [\d.e-]+/m);
  });
});
