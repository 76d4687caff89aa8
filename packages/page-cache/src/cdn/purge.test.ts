import { describe, expect, it } from "vitest";

import { cloudflareProvider, fastlyProvider, httpPurgeProvider, CdnError, type CdnProvider } from "./providers.ts";
import { handleCdnPurge } from "./purge.ts";

const SECRET = "cdn-purge-secret-0123456789";

/** A fetch that records what it was asked and answers as told. */
function recordingFetch(status = 200) {
  const calls: Array<{ url: string; method: string; headers: Record<string, string>; body: unknown }> = [];
  const fake = (async (url: string | URL, init?: RequestInit) => {
    calls.push({
      url: String(url),
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    return new Response(JSON.stringify({ success: status < 400 }), { status });
  }) as typeof fetch;
  return { fake, calls };
}

const options = (fake: typeof fetch) => ({ siteUrl: "https://www.example.com", timeoutMs: 1000, fetch: fake });

describe("CDN providers send their documented requests", () => {
  it("Cloudflare: files as absolute URLs, tags, purge_everything, with the API token", async () => {
    const { fake, calls } = recordingFetch();
    const cloudflare = cloudflareProvider({ zoneId: "zone1", apiToken: "cf-token" }, options(fake));
    await cloudflare.purge({ paths: ["/company"], tags: ["cms:api::navbar.navbar"], everything: false });
    await cloudflare.purge({ paths: [], tags: [], everything: true });
    expect(calls).toEqual([
      {
        url: "https://api.cloudflare.com/client/v4/zones/zone1/purge_cache",
        method: "POST",
        headers: { authorization: "Bearer cf-token", "content-type": "application/json" },
        body: { files: ["https://www.example.com/company"] },
      },
      expect.objectContaining({ body: { tags: ["cms:api::navbar.navbar"] } }),
      expect.objectContaining({ body: { purge_everything: true } }),
    ]);
  });

  it("Cloudflare: at most 30 URLs per call", async () => {
    const { fake, calls } = recordingFetch();
    const paths = Array.from({ length: 31 }, (_, index) => `/p${index}`);
    await cloudflareProvider({ zoneId: "z", apiToken: "t" }, options(fake)).purge({
      paths,
      tags: [],
      everything: false,
    });
    expect(calls.map((call) => (call.body as { files: string[] }).files.length)).toEqual([30, 1]);
  });

  it("Fastly: soft purge by surrogate key and by URL when soft, hard otherwise; purge_all for everything", async () => {
    const { fake, calls } = recordingFetch();
    const fastly = fastlyProvider({ serviceId: "svc", apiToken: "f-token" }, options(fake));
    await fastly.purge({
      paths: ["/jobs?x=1"],
      tags: ["cms:api::footer.footer", "path:/jobs"],
      everything: false,
      soft: true,
    });
    await fastly.purge({ paths: [], tags: [], everything: true });
    expect(calls[0]).toMatchObject({
      url: "https://api.fastly.com/service/svc/purge",
      method: "POST",
      headers: {
        "fastly-key": "f-token",
        "fastly-soft-purge": "1",
        "surrogate-key": "cms:api::footer.footer path:/jobs",
      },
    });
    expect(calls[1]).toMatchObject({ url: "https://api.fastly.com/purge/www.example.com/jobs?x=1", method: "POST" });
    expect(calls[1]?.headers["fastly-soft-purge"]).toBe("1");
    expect(calls[2]).toMatchObject({ url: "https://api.fastly.com/service/svc/purge_all", method: "POST" });
    await fastly.purge({ paths: ["/jobs"], tags: ["path:/jobs"], everything: false });
    expect(calls.slice(3).map((call) => call.headers["fastly-soft-purge"])).toEqual([undefined, undefined]);
  });

  it("HTTP caches: PURGE per path, BAN with the tags, BAN everything", async () => {
    const { fake, calls } = recordingFetch();
    const http = httpPurgeProvider({ purgeUrl: "http://varnish:6081", host: "www.example.com" }, options(fake));
    await http.purge({ paths: ["/a", "/b"], tags: ["t1", "t2"], everything: false });
    await http.purge({ paths: [], tags: [], everything: true });
    expect(
      calls.map((call) => [call.method, call.url, call.headers["x-purge-tags"] ?? call.headers["x-purge-all"] ?? ""]),
    ).toEqual([
      ["PURGE", "http://varnish:6081/a", ""],
      ["PURGE", "http://varnish:6081/b", ""],
      ["BAN", "http://varnish:6081/", "t1 t2"],
      ["BAN", "http://varnish:6081/", "1"],
    ]);
  });

  it("a CDN error becomes a CdnError with the CDN's answer", async () => {
    const { fake } = recordingFetch(403);
    await expect(
      cloudflareProvider({ zoneId: "z", apiToken: "t" }, options(fake)).purge({
        paths: ["/a"],
        tags: [],
        everything: false,
      }),
    ).rejects.toThrow(CdnError);
  });
});

describe("POST /api/cdn-purge", () => {
  const purged: unknown[] = [];
  const provider: CdnProvider = {
    name: "fake",
    async purge(request) {
      purged.push(request);
      return { provider: "fake", requests: ["done"] };
    },
  };
  const post = (body: string, authorization = `Bearer ${SECRET}`) =>
    new Request("http://site/api/cdn-purge", {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body,
    });
  const quiet = () => {};

  it("503 without a secret, 401 with a wrong one (body never read), 413 when too large", async () => {
    expect((await handleCdnPurge(post("{}"), { secret: undefined, provider, log: quiet })).status).toBe(503);
    const wrong = await handleCdnPurge(post("x".repeat(10), "Bearer revalidate-secret-0123456789"), {
      secret: SECRET,
      provider,
      log: quiet,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("connection")).toBe("close");
    expect(
      (
        await handleCdnPurge(post(JSON.stringify({ paths: ["/" + "a".repeat(70_000)] })), {
          secret: SECRET,
          provider,
          log: quiet,
        })
      ).status,
    ).toBe(413);
  });

  it.each([
    ["not json", 400],
    [JSON.stringify({}), 400],
    [JSON.stringify({ paths: ["company"] }), 400],
    [JSON.stringify({ everything: false }), 400],
    [JSON.stringify({ tags: ["a b"] }), 400],
  ])("400 for %s", async (body, status) => {
    expect((await handleCdnPurge(post(body), { secret: SECRET, provider, log: quiet })).status).toBe(status);
  });

  it("501 with a clear message when no CDN is configured", async () => {
    const response = await handleCdnPurge(post(JSON.stringify({ everything: true })), {
      secret: SECRET,
      provider: null,
      log: quiet,
    });
    expect(response.status).toBe(501);
    expect((await response.json()).error).toMatch(/No CDN is configured/);
  });

  it("200 with what was purged, 502 when the CDN refuses", async () => {
    const ok = await handleCdnPurge(post(JSON.stringify({ paths: ["/company"], tags: ["cms:api::navbar.navbar"] })), {
      secret: SECRET,
      provider,
      log: quiet,
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ purged: true, provider: "fake", requests: ["done"] });
    expect(purged.at(-1)).toEqual({
      paths: ["/company"],
      // the path's tag too: its .data twin, query variants and cached 404s carry it
      tags: ["cms:api::navbar.navbar", "path:/company"],
      everything: false,
      soft: false,
    });

    const failing: CdnProvider = { name: "x", purge: () => Promise.reject(new CdnError("x: the CDN answered 403")) };
    const refused = await handleCdnPurge(post(JSON.stringify({ everything: true })), {
      secret: SECRET,
      provider: failing,
      log: quiet,
    });
    expect(refused.status).toBe(502);
  });
});
