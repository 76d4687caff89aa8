import { describe, expect, it } from "vitest";

import { standInSite } from "../support/stand-in-site.ts";
import { until } from "../support/wait.ts";

// After a (re)start, the site requests the CMS's published pages itself, in the background:
// the first visitors find them cached.
const site = standInSite({
  seed: (cms) => {
    for (const fullPath of ["/", "/about", "/team", "/jobs", "/jobs/a"])
      cms.setPage({ fullPath, title: `Page ${fullPath}` });
    cms.setPage({ fullPath: "/about", title: "Über uns", locale: "de" });
    cms.setPage({ fullPath: "/x", title: "Not a configured locale", locale: "fr" });
  },
  env: {
    CACHE_WARM_PAGES: "6",
  },
});

describe("warm start", () => {
  it("requests the published pages (paged, at most CACHE_WARM_PAGES) so the first visitors get HITs", async () => {
    await until("the warm start", site.app.output, (output) => /\[cache\] warm start: \d+ page/.test(output), {
      timeoutMs: 20_000,
    });
    expect(site.app.output()).toMatch(/\[cache\] warm start: 6 page\(s\) requested/);
    const contentCalls = site.cms.requests.length;
    for (const path of ["/", "/about", "/team", "/jobs", "/jobs/a", "/de/about"]) {
      const response = await fetch(`${site.app.url}${path}`);
      expect(response.headers.get("x-cache"), path).toBe("HIT");
      await response.arrayBuffer();
    }
    // The first visitors cost the CMS nothing.
    expect(site.cms.requests.length).toBe(contentCalls);
  });
});
