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
import {
  CDN_TAG_HEADER_BYTES,
  cdnTags,
  createResponseCacheMiddleware,
  pagePathOf,
  type CachedResponse,
  type PageRender,
  type RenderVariant,
} from "./response-cache.ts";

/** The site's policy as its tests need it: `better-auth.session_token` signs in, `site_preview` bypasses. */
const plainCookieVisitors: VisitorPolicy = {
  signedIn: (cookie) => /(?:^|;\s*)better-auth\.session_token=[^;]/.test(cookie ?? ""),
  bypasses: (headers) =>
    Boolean(headers.authorization) || /(?:^|;\s*)site_preview(?:_published)?=[^;]/.test(headers.cookie ?? ""),
};

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** The middleware in a real Express app, with a render the test controls. */
async function serve(render: (request: Request, variant: RenderVariant) => Promise<PageRender>) {
  const cache = new IsrCache<CachedResponse>({
    store: new MemoryStore(10_000_000),
    invalidations: new Invalidations(),
  });
  const seen: Array<string | null> = [];
  const app = express();
  app.use(
    createResponseCacheMiddleware({
      cache,
      render: (request, variant) => {
        seen.push(request.headers.get("cookie"));
        return render(request, variant);
      },
      isCacheablePath: (path) => !path.startsWith("/api/"),
      toWebRequest: (req, res) => toWebRequest(req, res, "http://site.test"),
      origin: "http://site.test",
      visitors: plainCookieVisitors,
      declaredQuery: (path) => ({
        query: path === "/search" ? { q: (value) => value } : ({} as Record<string, CanonicalQueryValue>),
        loaderRouteIds: ["root", "routes/cms-page"],
      }),
      send: sendWebResponse,
    }),
  );
  app.use((_req, res) => res.status(418).send("not cached here"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server?.once("listening", resolve));
  const base = `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    return { status: response.status, cache: response.headers.get("x-cache"), body: await response.text(), response };
  };
  return { get, seen };
}

const page =
  (body: string, init: ResponseInit = {}, extra: Partial<PageRender> = {}) =>
  async (): Promise<PageRender> => ({
    response: new Response(body, { status: 200, headers: { "content-type": "text/html" }, ...init }),
    tags: ["cms:api::navbar.navbar"],
    revalidate: 300,
    dynamic: false,
    ...extra,
  });

describe("the tags a CDN is told", () => {
  it("all of them while they fit; past the header budget, all but the documents' (the page cache keeps every one)", async () => {
    const few = ["cms:api::page.page", "cms:api::page.page:abc", "path:/x"];
    expect(cdnTags(few)).toEqual(few);
    const documents = Array.from({ length: 1_000 }, (_, index) => `cms:api::article.article:doc${index}`);
    const many = ["cms:api::article.article", "cms:api::article.article:list:*", ...documents, "path:/sitemap.xml"];
    expect(cdnTags(many)).toEqual(["cms:api::article.article", "cms:api::article.article:list:*", "path:/sitemap.xml"]);

    const { get } = await serve(page("<p>sitemap</p>".repeat(100), {}, { tags: many }));
    await get("/sitemap");
    const hit = await get("/sitemap");
    expect(hit.cache).toBe("HIT");
    const header = hit.response.headers.get("cache-tag") ?? "";
    expect(header.length).toBeLessThanOrEqual(CDN_TAG_HEADER_BYTES);
    expect(header.split(",").sort()).toEqual(
      ["cms:api::article.article", "cms:api::article.article:list:*", "path:/sitemap", "path:/sitemap.xml"].sort(),
    );
    expect(hit.response.headers.get("surrogate-key")?.split(" ").sort()).toEqual(header.split(",").sort());
  });
});

describe("response cache middleware", () => {
  it("maps .data requests to their page's path", () => {
    expect(pagePathOf("/company.data")).toBe("/company");
    expect(pagePathOf("/_.data")).toBe("/");
    expect(pagePathOf("/de/_.data")).toBe("/de/");
    expect(pagePathOf("/company")).toBe("/company");
  });

  it("never stores a response that sets a cookie", async () => {
    const { get } = await serve(page("hello", { headers: { "set-cookie": "a=b" } }));
    expect((await get("/x")).cache).toBe("BYPASS");
    expect((await get("/x")).cache).toBe("BYPASS");
  });

  it("never stores a render marked dynamic (it read the session or made a per-user call)", async () => {
    const { get, seen } = await serve(page("for you", {}, { dynamic: true }));
    expect((await get("/x")).cache).toBe("BYPASS");
    expect((await get("/x")).cache).toBe("BYPASS");
    // A visitor with cookies gets a render of their own, with their cookies, at once.
    expect((await get("/x", { cookie: "better-auth.session_token=abc" })).cache).toBe("BYPASS");
    expect(seen.at(-1)).toBe("better-auth.session_token=abc");
  });

  it("never stores a render that says Cache-Control: no-store (a sitemap part that does not exist)", async () => {
    const { get } = await serve(page("no such part", { status: 404, headers: { "cache-control": "no-store" } }));
    for (let i = 0; i < 2; i++) {
      const answer = await get("/sitemap/999.xml");
      expect(answer).toMatchObject({ status: 404, cache: "BYPASS" });
      expect(answer.response.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  it("never stores a 5xx", async () => {
    const { get } = await serve(page("down", { status: 503 }));
    expect(await get("/x")).toMatchObject({ status: 503, cache: "MISS" });
    expect(await get("/x")).toMatchObject({ status: 503, cache: "MISS" });
  });

  it("renders for the cache without the visitor's cookies, and serves it whatever cookies they carry", async () => {
    const { get, seen } = await serve(async (_request, variant) => page(variant.signedIn ? "signed in" : "public")());
    expect((await get("/x")).cache).toBe("MISS");
    const analytics = await get("/x", { cookie: "_ga=GA1.1.123; consent=all" });
    expect(analytics).toMatchObject({ cache: "HIT", body: "public" });
    // The signed-in variant: its own entry, keyed on the cookie's presence, never its value.
    expect(await get("/x", { cookie: "_ga=1; better-auth.session_token=one" })).toMatchObject({
      cache: "MISS",
      body: "signed in",
    });
    expect(await get("/x", { cookie: "better-auth.session_token=two" })).toMatchObject({
      cache: "HIT",
      body: "signed in",
    });
    expect(seen).toEqual([null, null]);
  });

  it("keys on the query parameters the route declares only", async () => {
    const { get } = await serve(async (request) => page(`rendered for ${new URL(request.url).search}`)());
    expect(await get("/about?utm_source=news&fbclid=1")).toMatchObject({ cache: "MISS", body: "rendered for " });
    expect(await get("/about?gclid=2")).toMatchObject({ cache: "HIT", body: "rendered for " });
    expect(await get("/search?q=a&utm_source=x")).toMatchObject({ cache: "MISS", body: "rendered for ?q=a" });
    expect(await get("/search?q=b")).toMatchObject({ cache: "MISS", body: "rendered for ?q=b" });
    expect(await get("/search?utm_medium=y&q=a")).toMatchObject({ cache: "HIT", body: "rendered for ?q=a" });
  });

  it("renders _routes in its one spelling, answers one without the page's route uncached, refuses a forged one", async () => {
    const rendered: string[] = [];
    const { get } = await serve(async (request) => {
      rendered.push(new URL(request.url).search);
      return page("data")();
    });
    expect(await get("/x.data?_routes=routes%2Fcms-page,routes%2Fcms-page")).toMatchObject({ cache: "MISS" });
    expect(await get("/x.data?_routes=routes%2Fcms-page")).toMatchObject({ status: 200, cache: "HIT" });
    expect(await get("/x.data?_routes=routes%2Fcms-page,root")).toMatchObject({ cache: "MISS" });
    expect(await get("/x.data")).toMatchObject({ status: 200, cache: "HIT" });
    expect(await get("/x.data?_routes=root")).toMatchObject({ status: 200, cache: "BYPASS" });
    expect(await get("/x.data?_routes=root")).toMatchObject({ status: 200, cache: "BYPASS" });
    const forged = await get("/x.data?_routes=forged");
    expect(forged).toMatchObject({ status: 400, body: expect.stringMatching(/^_routes may only name/) as string });
    expect(forged.response.headers.get("cache-control")).toBe("no-store");
    expect(rendered).toEqual(["?_routes=routes%2Fcms-page", "", "?_routes=root", "?_routes=root"]);
  });

  it("the signed-in variant is never kept by a CDN; the anonymous one varies on Cookie", async () => {
    const { get } = await serve(page("x"));
    await get("/x");
    const anonymous = (await get("/x")).response.headers;
    expect(anonymous.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(anonymous.get("cdn-cache-control")).toMatch(/^public, s-maxage=300/);
    await get("/x", { cookie: "better-auth.session_token=a" });
    const signedIn = (await get("/x", { cookie: "better-auth.session_token=a" })).response.headers;
    expect(signedIn.get("cdn-cache-control")).toBe("no-store");
    expect(signedIn.get("cache-control")).toMatch(/^private/);
  });

  it("leaves paths that are not pages to the next handler", async () => {
    const { get } = await serve(page("public"));
    expect(await get("/api/thing")).toMatchObject({ status: 418, cache: null });
  });
});
