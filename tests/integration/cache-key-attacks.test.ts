import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { getPage } from "../support/site-requests.ts";
import { standInSite } from "../support/stand-in-site.ts";

// Security finding 27: every input that reaches the page cache's key, sent by a stranger
// through the production server. The cache is the smallest allowed (1 MiB): before the fix,
// 500 forged `_routes` values were 500 entries and pushed /about out.
const METRICS = "metrics-secret-0123456789";
const site = standInSite({
  seed: (cms) => {
    cms.setPage({ fullPath: "/", title: "Home" });
    cms.setPage({ fullPath: "/about", title: "About us", paragraphs: 20 });
  },
  env: { PAGE_CACHE_MAX_BYTES: "1048576", METRICS_SECRET: METRICS },
});

const get = (path: string, headers: Record<string, string> = {}) => getPage(site.app.url, path, headers);

async function metric(name: string): Promise<number> {
  const response = await fetch(`${site.app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
  return Number(new RegExp(`^${name} (\\d+)$`, "m").exec(await response.text())?.[1]);
}

const forged = () => randomBytes(12).toString("base64url");

describe("_routes", () => {
  it("500 requests with a forged _routes are 400s: no entry, no eviction, /about still a HIT", async () => {
    await get("/about");
    expect((await get("/about")).cache).toBe("HIT");
    const [entries, evictions] = [await metric("isr_cache_entries"), await metric("isr_cache_evictions_total")];
    for (let i = 0; i < 500; i++) {
      const answer = await get(`/about.data?_routes=${i % 2 ? forged() : `root,${forged()}`}`);
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/^_routes may only name the routes with a loader that this address matches/);
    }
    expect(await metric("isr_cache_entries")).toBe(entries);
    expect(await metric("isr_cache_evictions_total")).toBe(evictions);
    expect((await get("/about")).cache).toBe("HIT");
  }, 60_000);

  it("the value React Router sends on a client-side navigation is cached, in one spelling", async () => {
    // From one CMS page to another the root's data is kept: only the page's own loader runs.
    const first = await get("/about.data?_routes=routes%2Fcms-page");
    expect(first).toMatchObject({ status: 200, cache: "MISS" });
    expect(first.text).toContain("About us");
    expect(await get("/about.data?_routes=routes%2Fcms-page")).toMatchObject({ status: 200, cache: "HIT" });
    // The home page's data request, and the same routes in another order or twice: one entry each.
    await get("/_.data?_routes=routes%2Fcms-home");
    expect(await get("/_.data?_routes=routes%2Fcms-home")).toMatchObject({ status: 200, cache: "HIT" });
    // Every loader named is what no _routes means: one entry.
    await get("/about.data?_routes=routes%2Fcms-page,root,root");
    expect(await get("/about.data")).toMatchObject({ status: 200, cache: "HIT" });
  });

  it("_routes=root on 200 missing paths (only the root's loader, so a 200): answered, never stored", async () => {
    await get("/about");
    const before = await metric("isr_cache_entries");
    for (let i = 0; i < 200; i++) {
      expect(await get(`/missing-${forged()}.data?_routes=root`)).toMatchObject({ status: 200, cache: "BYPASS" });
    }
    expect(await metric("isr_cache_entries")).toBe(before);
    expect((await get("/about")).cache).toBe("HIT");
  }, 60_000);

  it("a route of another page, the parameter twice, or a forged id on a missing page: 400", async () => {
    const before = await metric("isr_cache_entries");
    for (const path of [
      "/about.data?_routes=routes%2Fcms-home",
      "/about.data?_routes=routes%2Fsign-in",
      "/about.data?_routes=root&_routes=routes%2Fcms-page",
      `/missing-${forged()}.data?_routes=${forged()}`,
    ]) {
      expect((await get(path)).status, path).toBe(400);
    }
    expect(await metric("isr_cache_entries")).toBe(before);
  });
});

describe("every other input of the key", () => {
  it("_routes or any unknown parameter on a page's document: the cached page, no new entry", async () => {
    await get("/about");
    const before = await metric("isr_cache_entries");
    for (let i = 0; i < 200; i++) {
      const query = i % 2 ? `_routes=${forged()}` : `${forged()}=${forged()}`;
      expect(await get(`/about?${query}`)).toMatchObject({ status: 200, cache: "HIT" });
    }
    expect(await metric("isr_cache_entries")).toBe(before);
  });

  it("a session cookie of any value: one signed-in entry, never one per value", async () => {
    await get("/about", { cookie: "better-auth.session_token=first" });
    const before = await metric("isr_cache_entries");
    for (let i = 0; i < 50; i++) {
      const answer = await get("/about", { cookie: `better-auth.session_token=${forged()}` });
      expect(answer.cache).toBe("HIT");
    }
    expect(await metric("isr_cache_entries")).toBe(before);
  });
});
