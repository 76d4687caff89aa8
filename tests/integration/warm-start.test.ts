import getPort from "get-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";

// After a (re)start, the site requests the CMS's published pages itself, in the background:
// the first visitors find them cached.
let cms: StandInCms;
let app: AppHandle;

beforeAll(async () => {
  cms = new StandInCms(await getPort());
  await cms.start();
  for (const fullPath of ["/", "/about", "/team", "/jobs", "/jobs/a"]) cms.setPage({ fullPath, title: `Page ${fullPath}` });
  cms.setPage({ fullPath: "/about", title: "Über uns", locale: "de" });
  cms.setPage({ fullPath: "/x", title: "Not a configured locale", locale: "fr" });
  app = await startApp({
    port: await getPort(),
    env: { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789", CACHE_WARM_PAGES: "6" },
  });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await cms?.stop();
});

describe("warm start", () => {
  it("requests the published pages (paged, at most CACHE_WARM_PAGES) so the first visitors get HITs", async () => {
    const deadline = Date.now() + 20_000;
    while (!/\[cache\] warm start: \d+ page/.test(app.output())) {
      if (Date.now() > deadline) throw new Error(`no warm start:\n${app.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(app.output()).toMatch(/\[cache\] warm start: 6 page\(s\) requested/);
    const contentCalls = cms.requests.length;
    for (const path of ["/", "/about", "/team", "/jobs", "/jobs/a", "/de/about"]) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.headers.get("x-cache"), path).toBe("HIT");
      await response.arrayBuffer();
    }
    // The first visitors cost the CMS nothing.
    expect(cms.requests.length).toBe(contentCalls);
  });
});
