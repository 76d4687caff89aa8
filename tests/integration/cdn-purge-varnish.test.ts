import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";
import { until } from "../support/wait.ts";
import { httpPurgeProvider } from "@cms-site/page-cache";
import { startVarnish } from "../support/varnish.ts";

// A real Varnish (docs/varnish/default.vcl) in front of the production site; the site's
// /api/cdn-purge, with the "http" provider, purges it by path, by tag and entirely.
const SECRET = "cdn-purge-secret-0123456789";
const cms = new StandInCms(await getPort());
let app: AppHandle;
let varnish: Awaited<ReturnType<typeof startVarnish>>;

beforeAll(async () => {
  await cms.start();
  cms.setPage({ fullPath: "/company", title: "Company" });
  cms.setPage({ fullPath: "/positions", title: "Jobs" });
  cms.setPage({ fullPath: "/careers", title: "Careers" });
  const [appPort, varnishPort] = [await getPort(), await getPort()];
  app = await startApp({
    port: appPort,
    env: {
      CMS_URL: cms.url,
      CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789",
      CMS_CDN_PURGE_SECRET: SECRET,
      CDN_PROVIDER: "http",
      CDN_PURGE_URL: `http://127.0.0.1:${varnishPort}`,
    },
  });
  varnish = await startVarnish({ port: varnishPort, backendPort: appPort });
}, 60_000);

afterAll(async () => {
  await varnish?.stop();
  await app?.stop();
  await cms.stop();
});

async function viaCdn(path: string) {
  const response = await fetch(`${varnish.url}${path}`);
  await response.arrayBuffer();
  return response.headers.get("x-cdn-cache");
}

async function purge(body: unknown) {
  const response = await fetch(`${app.url}/api/cdn-purge`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

describe("CDN purge through a real Varnish", () => {
  it("Varnish caches the site's pages for as long as CDN-Cache-Control says", async () => {
    expect(await viaCdn("/company")).toBe("MISS");
    expect(await viaCdn("/company")).toBe("HIT");
  });

  it("purging a path makes the next request reach the site, for its .data twin too (the path's tag)", async () => {
    await viaCdn("/company");
    expect(await viaCdn("/company")).toBe("HIT");
    await viaCdn("/company.data");
    expect(await viaCdn("/company.data")).toBe("HIT");
    expect(await purge({ paths: ["/company"] })).toMatchObject({
      purged: true,
      provider: "http",
      requests: ["PURGE /company", "BAN tags path:/company"],
    });
    expect(await viaCdn("/company")).toBe("MISS");
    expect(await viaCdn("/company")).toBe("HIT");
    expect(await viaCdn("/company.data")).toBe("MISS");
  });

  it("purging a tag drops exactly the pages that carry it", async () => {
    for (const path of ["/company", "/positions", "/careers"]) {
      await viaCdn(path);
      expect(await viaCdn(path)).toBe("HIT");
    }
    await purge({ tags: ["path:/positions"] });
    expect(await viaCdn("/positions")).toBe("MISS");
    expect(await viaCdn("/company")).toBe("HIT");

    await purge({ tags: ["cms:api::navbar.navbar"] });
    expect(await viaCdn("/company")).toBe("MISS");
    expect(await viaCdn("/careers")).toBe("MISS");
  });

  it("a soft purge (X-Purge-Soft, purge.soft): the next visitor is answered from the CDN's copy while it refetches", async () => {
    await viaCdn("/positions");
    expect(await viaCdn("/positions")).toBe("HIT");
    const fetchesOfJobs = () =>
      app
        .output()
        .split("\n")
        .filter((line) => line.includes('"path":"/positions"')).length;
    const before = fetchesOfJobs();
    const soft = httpPurgeProvider(
      { purgeUrl: varnish.url, host: new URL(app.url).host },
      { siteUrl: app.url, timeoutMs: 2_000 },
    );
    expect(await soft.purge({ paths: ["/positions"], tags: [], everything: false, soft: true })).toEqual({
      provider: "http",
      requests: ["soft PURGE /positions"],
    });
    // Kept in grace: answered from the CDN's copy, not a MISS...
    expect(await viaCdn("/positions")).toBe("HIT");
    // ...which made Varnish fetch the page again in the background.
    await until("Varnish's background fetch of /positions", fetchesOfJobs, (count) => count > before);
  });

  it("purging everything empties it", async () => {
    await viaCdn("/company");
    expect(await viaCdn("/company")).toBe("HIT");
    await purge({ everything: true });
    expect(await viaCdn("/company")).toBe("MISS");
  });
});
