import { describe, expect, it } from "vitest";

import { quickstartBanner, WARM_START_OVER, warmStartEnabled } from "../../scripts/quickstart-env.mjs";
import { standInSite } from "../support/stand-in-site.ts";
import { until } from "../support/wait.ts";

// What `npm run quickstart` prints once both sides are up, checked against running production
// sites: it used to promise a MISS for the first curl of /company, which the warm start had
// already cached (a newcomer's first try showed HIT).
const seed = (cms: { setPage(page: { fullPath: string; title: string }): void }) => {
  for (const fullPath of ["/", "/company", "/positions"]) cms.setPage({ fullPath, title: `Page ${fullPath}` });
};
// What the quick start's site runs with: production's default (the tests' own default is 0).
const warm = standInSite({ seed, env: { CACHE_WARM_PAGES: "200" } });
const cold = standInSite({ seed, env: { CACHE_WARM_PAGES: "0" } });

type WarmStart = "done" | "off" | "running";
const banner = (siteUrl: string, warmStart: WarmStart) =>
  quickstartBanner({
    siteUrl,
    cmsUrl: "http://127.0.0.1:1337",
    email: "admin@example.com",
    password: "Admin12345",
    warmStart,
  });

const cacheOf = async (url: string) => (await fetch(url, { method: "HEAD" })).headers.get("x-cache");

/** The two URLs the banner tells a newcomer to try, and what it says the first one answers. */
function claims(text: string, siteUrl: string) {
  const curled = new RegExp(`curl -sI (${siteUrl}/\\S*) \\| grep x-cache\\n\\s+(HIT|MISS)\\b`).exec(text);
  const fresh = new RegExp(`is a MISS, then a HIT: (${siteUrl}/\\S*)`).exec(text);
  expect(curled, text).not.toBeNull();
  expect(fresh, text).not.toBeNull();
  return { curled: curled![1]!, first: curled![2]!, fresh: fresh![1]! };
}

describe("the quick start's banner", () => {
  it("names the site, the admin and the development login", () => {
    const text = banner("http://localhost:3000", "done");
    expect(text).toContain("Site (production build, page cache on):  http://localhost:3000");
    expect(text).toContain("CMS admin:                               http://127.0.0.1:1337/admin");
    expect(text).toContain("admin@example.com / Admin12345");
  });

  it("warm start over: the curled page is a HIT, a URL nobody asked for a MISS then a HIT", async () => {
    expect(warmStartEnabled({ CACHE_WARM_PAGES: "200" })).toBe(true);
    expect(warmStartEnabled({})).toBe(true);
    // What the quick start waits for before it prints the banner.
    await until("the warm start's end", warm.app.output, (output) => WARM_START_OVER.test(output), {
      timeoutMs: 20_000,
    });
    const { curled, first, fresh } = claims(banner(warm.app.url, "done"), warm.app.url);
    expect(first).toBe("HIT");
    expect(await cacheOf(curled)).toBe("HIT");
    expect(await cacheOf(fresh)).toBe("MISS");
    expect(await cacheOf(fresh)).toBe("HIT");
  });

  it("warm start off (CACHE_WARM_PAGES=0): the curled page is a MISS, then a HIT", async () => {
    expect(warmStartEnabled({ CACHE_WARM_PAGES: "0" })).toBe(false);
    const { curled, first } = claims(banner(cold.app.url, "off"), cold.app.url);
    expect(first).toBe("MISS");
    expect(await cacheOf(curled)).toBe("MISS");
    expect(await cacheOf(curled)).toBe("HIT");
  });

  it("warm start not over yet: names the log line that says it is", () => {
    const text = banner("http://localhost:3000", "running");
    const line = /`(\[cache\] warm start: [^`]*)`/.exec(text);
    expect(line, text).not.toBeNull();
    expect(WARM_START_OVER.test(line![1]!)).toBe(true);
  });
});
