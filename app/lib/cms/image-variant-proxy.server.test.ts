import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";

import { proxyVariant } from "./image-variant-proxy.server.ts";
import { createImageVariants } from "./image-variants.server.ts";
import { parseVariantRequest } from "./image-variants.ts";
import { MEDIA_CSP } from "./media-proxy.server.ts";
import { memoryLog } from "../../../tests/support/memory-log.ts";

const CMS = "http://cms.internal:1337";

function setUp(answer: () => Response) {
  const asked: string[] = [];
  const fetch = vi.fn(async (input: string | URL | Request) => {
    asked.push(String(input));
    return answer();
  }) as unknown as typeof globalThis.fetch;
  const variants = createImageVariants({ maxBytes: 1024 * 1024 });
  const call = (target: string, init?: RequestInit) => {
    const request = new Request(`https://www.example.com${target}`, init);
    return proxyVariant(request, parseVariantRequest(new URL(request.url))!, {
      cmsUrl: CMS,
      timeoutMs: 1000,
      fetch,
      variants,
      log: memoryLog(),
    });
  };
  return { asked, call, variants };
}

const png = () =>
  sharp({ create: { width: 800, height: 400, channels: 3, background: "#2563eb" } })
    .png()
    .toBuffer();
const fromCms = (bytes: Uint8Array, headers: Record<string, string> = {}) =>
  new Response(new Uint8Array(bytes), {
    headers: {
      "content-type": "image/png",
      "content-length": String(bytes.length),
      "last-modified": "Sat, 28 Nov 2026 09:28:08 GMT",
      ...headers,
    },
  });

describe("proxyVariant", () => {
  it("a refused address is a 400 before the CMS is asked", async () => {
    const { asked, call } = setUp(() => new Response("never"));
    const answer = await call("/uploads/_w333/a.png.avif");
    expect(answer.status).toBe(400);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.text()).toContain("160, 320, 480, 640, 960, 1280, 1920");
    expect(asked).toEqual([]);
  });

  it("asks the CMS for the original's path only, and answers the variant with its type, length, ETag and the sandbox", async () => {
    const bytes = await png();
    const { asked, call } = setUp(() => fromCms(bytes));
    const answer = await call("/uploads/_w320/a.png.webp?v=abc123");
    expect(asked).toEqual([`${CMS}/uploads/a.png`]);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/webp");
    expect(answer.headers.get("content-security-policy")).toBe(MEDIA_CSP);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const body = new Uint8Array(await answer.arrayBuffer());
    expect(answer.headers.get("content-length")).toBe(String(body.length));
    expect((await sharp(body).metadata()).width).toBe(320);
    // HEAD: the same headers, no body.
    const head = await call("/uploads/_w320/a.png.webp?v=abc123", { method: "HEAD" });
    expect(head.headers.get("etag")).toBe(answer.headers.get("etag"));
    expect(await head.text()).toBe("");
  });

  it("without Last-Modified the original's versions cannot be told apart: it is sent as it is, nothing made", async () => {
    const bytes = await png();
    const { call, variants } = setUp(() => fromCms(bytes, { "last-modified": "" }));
    const answer = await call("/uploads/_w320/a.png.webp?v=abc123");
    expect(answer.headers.get("content-type")).toBe("image/png");
    expect(answer.headers.get("cache-control")).toBe("public, max-age=300");
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
    expect(variants.stats().made).toBe(0);
  });

  it("a file the CMS does not have is a 404; the CMS failing a 502", async () => {
    expect((await setUp(() => new Response("", { status: 404 })).call("/uploads/_w320/a.png.webp")).status).toBe(404);
    expect((await setUp(() => new Response("", { status: 500 })).call("/uploads/_w320/a.png.webp")).status).toBe(502);
  });
});
