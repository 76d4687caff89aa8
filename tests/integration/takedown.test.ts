import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { RedisServer } from "../support/redis-server.ts";
import { getPage, postRevalidation } from "../support/site-requests.ts";
import { StandInCms } from "../support/stand-in-cms.ts";

// Takedowns over HTTP, against the production build and a stand-in CMS: an unpublish or delete
// is revalidated with `expire: true` (what the CMS's site-cache plugin sends for them), and the very
// next request gets a fresh render (404, or the redirect): never the old page, not even once
// STALE. One instance alone, and two sharing a real Redis (the flag crosses the bus).
const SECRET = "revalidate-secret-0123456789";
let cms: StandInCms;
let redis: RedisServer;
let app: AppHandle;
let a: AppHandle;
let b: AppHandle;

beforeAll(async () => {
  cms = new StandInCms(await getPort());
  redis = new RedisServer(await getPort());
  await Promise.all([cms.start(), redis.start()]);
  for (const fullPath of ["/gone", "/moved", "/gone-data", "/crowd", "/kept", "/shared-gone", "/later"]) {
    cms.setPage({ fullPath, title: `Page ${fullPath}` });
  }
  const env = {
    CMS_URL: cms.url,
    CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789",
    CMS_REVALIDATE_SECRET: SECRET,
  };
  const shared = { ...env, REDIS_URL: redis.url };
  [app, a, b] = await Promise.all([
    startApp({ port: await getPort(), env }),
    startApp({ port: await getPort(), env: shared }),
    startApp({ port: await getPort(), env: shared }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([app?.stop(), a?.stop(), b?.stop()]);
  await cms?.stop();
  await redis?.stop();
});

const get = (site: AppHandle, path: string) => getPage(site.url, path);
const revalidate = (site: AppHandle, next: { fullPaths?: string[]; tags?: string[]; expire?: boolean }) =>
  postRevalidation(site.url, SECRET, next);

/** Cached and served from the cache (HIT): what a takedown has to get rid of. */
async function cached(site: AppHandle, path: string) {
  await get(site, path);
  expect(await get(site, path)).toMatchObject({ status: 200, cache: "HIT" });
}

describe("a takedown (unpublish, delete) expires the page", () => {
  it("unpublished: the next request is a 404 rendered for it (MISS), never the old page; then cached", async () => {
    await cached(app, "/gone");
    cms.pages.delete("en:/gone");
    expect(await revalidate(app, { fullPaths: ["/gone"], expire: true })).toMatchObject({
      paths: ["/en/gone", "/gone"],
      expire: true,
    });
    const next = await get(app, "/gone");
    expect(next).toMatchObject({ status: 404, cache: "MISS" });
    expect(next.text).not.toContain("Page /gone");
    expect(await get(app, "/gone")).toMatchObject({ status: 404, cache: "HIT" });
    // The locale-prefixed spelling of the same page was expired with it.
    expect((await get(app, "/en/gone")).status).toBe(404);
  });

  it("a page replaced by a redirect answers the redirect at once", async () => {
    await cached(app, "/moved");
    cms.pages.delete("en:/moved");
    cms.redirects.set("/en/moved", { destination: "/kept", permanent: true });
    await revalidate(app, { fullPaths: ["/moved", "/en/moved"], expire: true });
    expect(await get(app, "/moved")).toMatchObject({ status: 308, cache: "MISS", location: "/kept" });
  });

  it("client-side navigation data (.data) is expired with its page", async () => {
    await get(app, "/gone-data.data");
    expect((await get(app, "/gone-data.data")).cache).toBe("HIT");
    cms.pages.delete("en:/gone-data");
    await revalidate(app, { fullPaths: ["/gone-data"], expire: true });
    const next = await get(app, "/gone-data.data");
    expect(next.cache).toBe("MISS");
    expect(next.text).not.toContain("Page /gone-data");
  });

  it("50 visitors at once right after it: each gets the 404, rendered once for them, none the old page", async () => {
    await cached(app, "/crowd");
    cms.pages.delete("en:/crowd");
    await revalidate(app, { fullPaths: ["/crowd"], expire: true });
    const asked = cms.requests.length;
    const answers = await Promise.all(Array.from({ length: 50 }, () => get(app, "/crowd")));
    expect(answers.every((answer) => answer.status === 404 && !answer.text.includes("Page /crowd"))).toBe(true);
    // Those who came while it rendered waited for it (MISS); later ones got it cached (HIT).
    expect(answers.filter((answer) => answer.cache !== "MISS" && answer.cache !== "HIT")).toEqual([]);
    const pageFetches = cms.requests
      .slice(asked)
      .filter((request) => request.startsWith("/api/pages") && request.includes("=/crowd"));
    expect(pageFetches).toHaveLength(1);
  });

  it("a publish still serves the previous version once, STALE (stale-while-revalidate is unchanged)", async () => {
    await cached(app, "/kept");
    cms.setPage({ fullPath: "/kept", title: "Kept, edited" });
    expect(await revalidate(app, { fullPaths: ["/kept"] })).toMatchObject({ expire: false });
    const next = await get(app, "/kept");
    expect(next).toMatchObject({ status: 200, cache: "STALE" });
    expect(next.text).toContain("Page /kept");
  });
});

describe("a takedown across instances sharing Redis", () => {
  it("revalidated on one instance, the other never serves the old page: its copy and Redis's are expired", async () => {
    await cached(a, "/shared-gone");
    // b takes a's render from Redis, then serves it from memory.
    expect(await get(b, "/shared-gone")).toMatchObject({ status: 200, cache: "HIT" });
    expect(await get(b, "/shared-gone")).toMatchObject({ status: 200, cache: "HIT" });
    cms.pages.delete("en:/shared-gone");
    await revalidate(a, { fullPaths: ["/shared-gone"], expire: true });
    expect(await get(a, "/shared-gone")).toMatchObject({ status: 404, cache: "MISS" });
    // b hears it on the Redis channel. Until it has (the old page as a HIT), then the 404; never STALE.
    const seen: string[] = [];
    const deadline = Date.now() + 5_000;
    for (;;) {
      const answer = await get(b, "/shared-gone");
      seen.push(`${answer.status} ${answer.cache}`);
      if (answer.status === 404) break;
      if (Date.now() > deadline) throw new Error(`b never answered 404: ${seen.join(", ")}`);
    }
    expect(seen.filter((answer) => answer !== "200 HIT")).toEqual(["404 MISS"]);
  });

  it("an instance that never had the page does not take the old render from Redis", async () => {
    await cached(a, "/later");
    cms.pages.delete("en:/later");
    await revalidate(a, { fullPaths: ["/later"], expire: true });
    // b has nothing in memory; Redis still holds a's 200 (404s are never written there).
    expect(await get(b, "/later")).toMatchObject({ status: 404, cache: "MISS" });
  });
});
