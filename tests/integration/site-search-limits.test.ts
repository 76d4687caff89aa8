import { createServer, type Server, type ServerResponse } from "node:http";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getPage } from "../support/site-requests.ts";
import { strapiSite } from "../support/strapi-site.ts";

// The site search's limits (docs/search.md, "Limits and answers"; docs/security.md, finding 52)
// through the shared real Strapi and the production site: a client's search budget, and a CMS
// whose search fails or hangs. The site reads the CMS through a pass-through proxy that can break
// `/api/site-search` alone (an error status, or no answer at all), as a CMS under load or with a
// broken index would, and counts the search calls that reach the CMS; everything else goes
// through untouched. TRUST_PROXY=loopback lets each test speak from the addresses it names
// (X-Forwarded-For), as the other rate-limit tests do. Its own site process: the budget is small.
const BUDGET = 3;
/** The site's time limit for a CMS call: what a hanging search waits for. */
const CMS_TIMEOUT_MS = 3_000;
const proxyPort = await getPort();
let proxy: Server;
let fault: "none" | "error" | "hang" = "none";
let searchCalls = 0;
const held = new Set<ServerResponse>();

// Registered before strapiSite's own beforeAll: the proxy is up before the site starts.
beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    if (req.url?.startsWith("/api/site-search")) {
      searchCalls++;
      if (fault === "hang") {
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      if (fault === "error") {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: null, error: { status: 500, name: "InternalServerError", message: "broken" } }));
        return;
      }
    }
    try {
      const upstream = await fetch(`${site.cms.url}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(
            (entry): entry is [string, string] =>
              typeof entry[1] === "string" && !["host", "connection"].includes(entry[0]),
          ),
        ),
        body: req.method === "GET" || req.method === "HEAD" ? undefined : req,
        duplex: "half",
      } as RequestInit);
      const body = Buffer.from(await upstream.arrayBuffer());
      res.writeHead(upstream.status, {
        "content-type": upstream.headers.get("content-type") ?? "application/octet-stream",
        "content-length": String(body.length),
      });
      res.end(body);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`search test proxy: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve));
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
});

const site = strapiSite("site-search-limits", {
  sharedCms: true,
  appEnv: {
    CMS_URL: `http://127.0.0.1:${proxyPort}`,
    CMS_FETCH_TIMEOUT_MS: String(CMS_TIMEOUT_MS),
    SEARCH_RATE_LIMIT_MAX: String(BUDGET),
    TRUST_PROXY: "loopback",
  },
});

const searchFrom = (client: string, path: string) => getPage(site.app.url, path, { "x-forwarded-for": client });

describe("a client's search budget", () => {
  it("the search past the budget is a 429 with Retry-After in the visitor's locale; the CMS is not asked; another client is served", async () => {
    const client = "198.51.100.21";
    for (let i = 0; i < BUDGET; i++) {
      const page = await searchFrom(client, `/search?q=berlin+${i}`);
      expect(page.status, `search ${i + 1}`).toBe(200);
    }
    const callsBefore = searchCalls;
    const refused = await searchFrom(client, "/de/search?q=kaffeemaschine");
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After ${wait}`).toBe(true);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
    expect(refused.headers.get("cdn-cache-control")).toBe("no-store");
    expect(refused.cache).toBeNull();
    expect(refused.text).toContain('<html lang="de"');
    expect(refused.text).toMatch(/Sie haben in kurzer Zeit sehr oft gesucht\. Bitte warten Sie \d+ Sekunden?/);
    // The search form is still there, holding the query.
    expect(refused.text).toMatch(/<input id="search-page-q"[^>]* value="kaffeemaschine"/);
    expect(searchCalls).toBe(callsBefore);

    const english = await searchFrom(client, "/search?q=berlin");
    expect(english.status).toBe(429);
    expect(english.text).toMatch(/You have searched very often in a short time\. Please wait \d+ seconds?/);
    // What costs the CMS nothing is not refused: the empty search page.
    expect((await searchFrom(client, "/search")).status).toBe(200);
    expect(searchCalls).toBe(callsBefore);

    const other = await searchFrom("198.51.100.22", "/de/search?q=kaffeemaschine");
    expect(other.status).toBe(200);
    expect(other.text).toContain("1 Ergebnis für „kaffeemaschine“");
  });
});

describe("the CMS's search failing", () => {
  it("an error answer or none in time: 503, a page that says the search is unavailable, nothing cached", async () => {
    try {
      fault = "error";
      const failed = await searchFrom("198.51.100.31", "/search?q=berlin");
      expect(failed.status).toBe(503);
      expect(failed.text).toContain("The search is not available at the moment. Please try again in a few minutes.");
      expect(failed.headers.get("cache-control")).toBe("private, no-store");
      expect(failed.headers.get("cdn-cache-control")).toBe("no-store");
      expect(failed.cache).toBeNull();
      const german = await searchFrom("198.51.100.31", "/de/search?q=berlin");
      expect(german.status).toBe(503);
      expect(german.text).toContain("Die Suche ist im Moment nicht verfügbar.");

      fault = "hang";
      const started = Date.now();
      const timedOut = await searchFrom("198.51.100.32", "/search?q=berlin");
      expect(timedOut.status).toBe(503);
      expect(timedOut.text).toContain("The search is not available at the moment.");
      expect(timedOut.headers.get("cache-control")).toBe("private, no-store");
      // The site's time limit ended the wait, not the CMS (which never answers).
      expect(Date.now() - started).toBeGreaterThanOrEqual(CMS_TIMEOUT_MS - 100);
    } finally {
      fault = "none";
    }
    // The CMS well again: the same search is answered (nothing of the failure was kept).
    const mended = await searchFrom("198.51.100.33", "/search?q=berlin");
    expect(mended.status).toBe(200);
    expect(mended.text).toMatch(/\d+ results? for “berlin”/);
  }, 30_000);
});
