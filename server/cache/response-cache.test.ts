import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

import express from "express";
import { afterEach, describe, expect, it } from "vitest";

import { sendWebResponse, toWebRequest } from "../web-http.ts";
import { Invalidations } from "./invalidations.ts";
import { IsrCache } from "./isr-cache.ts";
import { MemoryStore } from "./memory-store.ts";
import { createResponseCacheMiddleware, pagePathOf, type CachedResponse, type PageRender } from "./response-cache.ts";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** The middleware in a real Express app, with a render the test controls. */
async function serve(render: (request: Request) => Promise<PageRender>) {
  const cache = new IsrCache<CachedResponse>({ store: new MemoryStore(10_000_000), invalidations: new Invalidations() });
  const seen: Array<string | null> = [];
  const app = express();
  app.use(
    createResponseCacheMiddleware({
      cache,
      render: (request) => {
        seen.push(request.headers.get("cookie"));
        return render(request);
      },
      isCacheablePath: (path) => !path.startsWith("/api/"),
      toWebRequest: (req, res) => toWebRequest(req, res, "http://site.test"),
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

const page = (body: string, init: ResponseInit = {}, extra: Partial<PageRender> = {}) =>
  async (): Promise<PageRender> => ({
    response: new Response(body, { status: 200, headers: { "content-type": "text/html" }, ...init }),
    tags: ["cms:api::navbar.navbar"],
    revalidate: 300,
    dynamic: false,
    ...extra,
  });

describe("response cache middleware", () => {
  it("maps .data requests to their page's path", () => {
    expect(pagePathOf("/company.data")).toBe("/company");
    expect(pagePathOf("/_root.data")).toBe("/");
    expect(pagePathOf("/company")).toBe("/company");
  });

  it("never stores a response that sets a cookie", async () => {
    const { get } = await serve(page("hello", { headers: { "set-cookie": "a=b" } }));
    expect((await get("/x")).cache).toBe("BYPASS");
    expect((await get("/x")).cache).toBe("BYPASS");
  });

  it("never stores a render marked dynamic (it read the session or made a per-user call)", async () => {
    const { get } = await serve(page("for you", {}, { dynamic: true }));
    expect((await get("/x")).cache).toBe("BYPASS");
    expect((await get("/x")).cache).toBe("BYPASS");
  });

  it("never stores a 5xx", async () => {
    const { get } = await serve(page("down", { status: 503 }));
    expect(await get("/x")).toMatchObject({ status: 503, cache: "MISS" });
    expect(await get("/x")).toMatchObject({ status: 503, cache: "MISS" });
  });

  it("renders for the cache without the visitor's cookies, and a visitor with cookies is not served from it", async () => {
    const { get, seen } = await serve(page("public"));
    await get("/x");
    expect(seen).toEqual([null]);
    expect((await get("/x", { cookie: "session=secret" })).cache).toBe("BYPASS");
    expect(seen).toEqual([null, "session=secret"]);
  });

  it("leaves paths that are not pages to the next handler", async () => {
    const { get } = await serve(page("public"));
    expect(await get("/api/thing")).toMatchObject({ status: 418, cache: null });
  });
});
