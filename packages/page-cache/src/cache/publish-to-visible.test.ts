import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

import express from "express";
import { afterEach, describe, expect, it } from "vitest";

import { sendWebResponse, toWebRequest } from "../http/express-fetch.ts";
import type { VisitorPolicy } from "./cache-key.ts";
import type { CanonicalQueryValue } from "./declared-query.ts";
import { Invalidations } from "./invalidations.ts";
import { IsrCache } from "./isr-cache.ts";
import { MemoryStore } from "./memory-store.ts";
import { PublishClock } from "./publish-clock.ts";
import {
  createPageRefresher,
  createResponseCacheMiddleware,
  type CachedResponse,
  type ResponseCacheOptions,
} from "./response-cache.ts";

// Decision 0028: what a CDN may keep (STALE: nothing; fresh: CDN_S_MAXAGE), the re-render a
// revalidation makes before it is answered, and publish_to_visible_seconds.

/** The site's policy as its tests need it: `better-auth.session_token` signs in, `site_preview` bypasses. */
const plainCookieVisitors: VisitorPolicy = {
  signedIn: (cookie) => /(?:^|;\s*)better-auth\.session_token=[^;]/.test(cookie ?? ""),
  bypasses: (headers) =>
    Boolean(headers.authorization) || /(?:^|;\s*)site_preview(?:_published)?=[^;]/.test(headers.cookie ?? ""),
};

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(extra: Partial<ResponseCacheOptions> = {}) {
  const invalidations = new Invalidations();
  const cache = new IsrCache<CachedResponse>({ store: new MemoryStore(10_000_000), invalidations });
  let version = 1;
  const options: ResponseCacheOptions = {
    cache,
    render: async () => ({
      response: new Response(`<p>version ${version}</p>`, { headers: { "content-type": "text/html" } }),
      tags: ["cms:api::page.page"],
      revalidate: 300,
      dynamic: false,
    }),
    isCacheablePath: (path) => !path.startsWith("/api/"),
    toWebRequest: (req, res) => toWebRequest(req, res, "http://site.test"),
    origin: "http://site.test",
    visitors: plainCookieVisitors,
    declaredQuery: () => ({ query: {} as Record<string, CanonicalQueryValue>, loaderRouteIds: ["root"] }),
    send: sendWebResponse,
    ...extra,
  };
  const app = express();
  app.use(createResponseCacheMiddleware(options));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server?.once("listening", resolve));
  const base = `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    return {
      cache: response.headers.get("x-cache"),
      cdn: response.headers.get("cdn-cache-control"),
      body: await response.text(),
    };
  };
  return {
    get,
    publish: () => {
      version += 1;
      invalidations.revalidatePath("/company");
    },
    refresh: createPageRefresher(options),
    cache,
  };
}

describe("what a CDN may keep", () => {
  it("a fresh page: CDN_S_MAXAGE when set; a STALE one (an old render): no-store", async () => {
    const site = await serve({ cdnMaxAge: 86_400 });
    await site.get("/company");
    expect(await site.get("/company")).toMatchObject({
      cache: "HIT",
      cdn: "public, s-maxage=86400, stale-while-revalidate=86400",
    });
    site.publish();
    expect(await site.get("/company")).toMatchObject({ cache: "STALE", cdn: "no-store", body: "<p>version 1</p>" });
  });

  it("without a purged CDN the page's own interval, as before", async () => {
    const site = await serve();
    await site.get("/company");
    expect((await site.get("/company")).cdn).toBe("public, s-maxage=300, stale-while-revalidate=86400");
  });
});

describe("the re-render before the revalidation is answered", () => {
  it("renders the stale pages of the paths now: the next visitor gets the new page, never the old one", async () => {
    const site = await serve({ cdnMaxAge: 86_400 });
    await site.get("/company");
    site.publish();
    expect(await site.refresh(["/company", "/never-cached", "/jobs/*", "/api/x"])).toBe(1);
    expect(await site.get("/company")).toMatchObject({ cache: "HIT", body: "<p>version 2</p>" });
  });
});

describe("publish_to_visible_seconds", () => {
  it("from the commit to the first fresh answer, once for the origin and once through the CDN", async () => {
    let now = 10_000;
    const clock = new PublishClock({ now: () => now });
    const site = await serve({ publishClock: clock, cdnMaxAge: 86_400 });
    await site.get("/company");
    site.publish();
    clock.revalidated(["/company"], 9_500);
    now = 10_300;
    await site.refresh(["/company"]);
    now = 10_700;
    expect((await site.get("/company", { "x-varnish": "1234" })).cache).toBe("HIT");
    now = 11_500;
    await site.get("/company");
    await site.get("/company");
    await site.get("/company", { "x-varnish": "5678" });
    const { values } = await clock.histogram.get();
    const count = (via: string) =>
      values.find((value) => value.metricName === "publish_to_visible_seconds_count" && value.labels.via === via)
        ?.value;
    const sum = (via: string) =>
      values.find((value) => value.metricName === "publish_to_visible_seconds_sum" && value.labels.via === via)?.value;
    expect([count("edge"), sum("edge")]).toEqual([1, 1.2]);
    expect([count("origin"), sum("origin")]).toEqual([1, 2]);
    expect(clock.size).toBe(0);
  });

  it("bounded: at most maxPaths paths wait for their render; a commit older than 10 minutes is not measured", () => {
    let now = 1_000_000;
    const clock = new PublishClock({ now: () => now, maxPaths: 100 });
    clock.revalidated(
      Array.from({ length: 1_000 }, (_, n) => `/p${n}`),
      now,
    );
    expect(clock.size).toBe(100);
    now += 11 * 60_000;
    clock.revalidated(["/late"], 1_000_000);
    expect(clock.takeFor("/late")).toBeUndefined();
  });
});
