import { describe, expect, it, vi } from "vitest";

import {
  MEDIA_CACHE_CONTROL,
  MEDIA_CSP,
  MEDIA_UNVERSIONED_CACHE_CONTROL,
  proxyUpload,
  uploadPathOf,
} from "./media-proxy.server.ts";
import { memoryLog } from "../../../tests/support/memory-log.ts";

const CMS = "http://cms.internal:1337";

/** A fake CMS: records what it was asked, answers with `answer`. */
function cmsAnswering(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const asked: Array<{ url: string; init: RequestInit }> = [];
  const fetch = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    asked.push({ url: String(input), init });
    return answer(String(input), init);
  }) as unknown as typeof globalThis.fetch;
  return { asked, config: { cmsUrl: CMS, timeoutMs: 1000, fetch, log: memoryLog() } };
}

const site = (path: string, init?: RequestInit) => new Request(`https://www.example.com${path}`, init);

describe("uploadPathOf", () => {
  it("passes paths under /uploads/, each segment encoded again", () => {
    expect(uploadPathOf("/uploads/acme_share_1a2b.png")).toBe("/uploads/acme_share_1a2b.png");
    expect(uploadPathOf("/uploads/folder/a%20b.png")).toBe("/uploads/folder/a%20b.png");
  });

  it("refuses anything else: other prefixes, dot segments (plain or encoded), encoded slashes, empty segments", () => {
    for (const path of [
      "/not-uploads/a.png",
      "/uploads",
      "/uploads/",
      "/uploadsx/a.png",
      "/uploads/../x",
      "/uploads/%2e%2e/x",
      "/uploads/%2E%2E",
      "/uploads/./a.png",
      "/uploads/a%2Fb.png",
      "/uploads/a%5Cb.png",
      "/uploads/a//b.png",
      "/uploads/a%00.png",
      "/uploads/%E0%A4%A.png",
    ]) {
      expect(uploadPathOf(path), path).toBeNull();
    }
  });
});

describe("proxyUpload", () => {
  it("streams the CMS's file with a year's immutable caching (a versioned address), its type and length, and a sandboxing CSP", async () => {
    const { asked, config } = cmsAnswering(
      () =>
        new Response("PNGDATA", {
          headers: {
            "content-type": "image/png",
            "content-length": "7",
            "last-modified": "Mon, 23 Nov 2026 10:00:00 GMT",
            "cache-control": "max-age=60",
            "set-cookie": "cms=1",
            server: "koa",
          },
        }),
    );
    const response = await proxyUpload(
      site("/uploads/a.png?v=mfq3k2x1", {
        headers: { cookie: "session=secret", authorization: "Bearer x", range: "bytes=0-3" },
      }),
      config,
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]?.url).toBe(`${CMS}/uploads/a.png`);
    const sent = new Headers(asked[0]?.init.headers);
    // Nothing of the visitor's reaches the CMS but what a file read needs.
    expect([...sent.keys()]).toEqual(["range"]);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      "cache-control": MEDIA_CACHE_CONTROL,
      "content-security-policy": MEDIA_CSP,
      "content-type": "image/png",
      "content-length": "7",
      "last-modified": "Mon, 23 Nov 2026 10:00:00 GMT",
    });
    expect(await response.text()).toBe("PNGDATA");
  });

  it("an address without a version (or a malformed one) is kept 5 minutes, not a year: Strapi keeps the URL of a replaced file", async () => {
    for (const target of ["/uploads/a.png", "/uploads/a.png?v=%3Cx%3E"]) {
      const { config } = cmsAnswering(() => new Response("PNG", { headers: { "content-type": "image/png" } }));
      const response = await proxyUpload(site(target), config);
      expect(response.headers.get("cache-control"), target).toBe(MEDIA_UNVERSIONED_CACHE_CONTROL);
      expect(MEDIA_UNVERSIONED_CACHE_CONTROL).toBe("public, max-age=300");
      expect(response.headers.get("content-security-policy"), target).toBe(MEDIA_CSP);
    }
  });

  it("hands over the body as it arrives: the first bytes are readable while the CMS is still sending", async () => {
    let finish!: () => void;
    const rest = new Promise<void>((resolve) => (finish = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode("first"));
        await rest;
        controller.enqueue(new TextEncoder().encode("-last"));
        controller.close();
      },
    });
    const { config } = cmsAnswering(() => new Response(body, { headers: { "content-type": "video/mp4" } }));
    const response = await proxyUpload(site("/uploads/v.mp4"), config);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first");
    finish();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("-last");
    expect((await reader.read()).done).toBe(true);
  });

  it("passes range answers through (206 with Content-Range)", async () => {
    const { config } = cmsAnswering(
      () =>
        new Response("PNG", {
          status: 206,
          headers: { "content-type": "image/png", "content-range": "bytes 0-2/7", "accept-ranges": "bytes" },
        }),
    );
    const response = await proxyUpload(site("/uploads/a.png", { headers: { range: "bytes=0-2" } }), config);
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe("bytes 0-2/7");
  });

  it("asks the CMS nothing for a path outside /uploads/ or with a dot segment: 404", async () => {
    const { asked, config } = cmsAnswering(() => new Response("secret"));
    for (const path of ["/uploads/%2e%2e/x", "/uploads/", "/uploads/a%2Fb"]) {
      const response = await proxyUpload(site(path), config);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toBe("There is no file at this address.\n");
    }
    expect(asked).toHaveLength(0);
  });

  it("a file the CMS does not have: 404, not cached", async () => {
    const { config } = cmsAnswering(() => new Response("Not Found", { status: 404 }));
    const response = await proxyUpload(site("/uploads/gone.png"), config);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("the CMS failing: 502; not answering: 503 with Retry-After; both logged, neither cached", async () => {
    const log = memoryLog();
    const failing = cmsAnswering(() => new Response("boom", { status: 500 }));
    const bad = await proxyUpload(site("/uploads/a.png"), { ...failing.config, log });
    expect(bad.status).toBe(502);
    expect(bad.headers.get("cache-control")).toBe("no-store");

    const down = cmsAnswering(() => Promise.reject(new TypeError("fetch failed")));
    const unavailable = await proxyUpload(site("/uploads/a.png"), { ...down.config, log });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("retry-after")).toBe("30");
    expect(log.messages("error")).toEqual([
      "[media] /uploads/a.png: the CMS answered 500",
      "[media] /uploads/a.png: the CMS did not answer (TypeError: fetch failed)",
    ]);
  });

  it("gives the CMS CMS_FETCH_TIMEOUT_MS to start answering", async () => {
    const log = memoryLog();
    const hanging = cmsAnswering(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
        ),
    );
    const response = await proxyUpload(site("/uploads/a.png"), {
      ...hanging.config,
      timeoutMs: 50,
      log,
    });
    expect(response.status).toBe(503);
    expect(log.messages("error")).toEqual(["[media] /uploads/a.png: the CMS did not answer (timeout)"]);
  });

  it("HEAD asks the CMS for headers only; other methods are refused", async () => {
    const { asked, config } = cmsAnswering(
      () => new Response(null, { headers: { "content-type": "image/png", "content-length": "7" } }),
    );
    const head = await proxyUpload(site("/uploads/a.png", { method: "HEAD" }), config);
    expect(asked[0]?.init.method).toBe("HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("7");
    const post = await proxyUpload(site("/uploads/a.png", { method: "POST", body: "x" }), config);
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});
