import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { projectRoot } from "../support/app-server.ts";
import { standInSite } from "../support/stand-in-site.ts";

// The favicon is a static file from public/ (Vite copies it into build/client): answered by the
// host's static files, never by the page cache or React Router, which used to answer every
// browser's /favicon.ico with a 404 page.
const site = standInSite({ seed: (cms) => cms.setPage({ fullPath: "/", title: "Home" }) });

describe("favicon", () => {
  it.each([
    ["/favicon.ico", /^image\/(x-icon|vnd\.microsoft\.icon)$/],
    ["/favicon.svg", /^image\/svg\+xml/],
  ])("%s is the file from public/, an image, cached by browsers", async (file, type) => {
    const response = await fetch(`${site.app.url}${file}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(type);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(readFileSync(path.join(projectRoot, "public", file)));
    // Browsers keep it (an hour at least) instead of asking on every page view.
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(604800);
    // Not a page: the page cache never saw it.
    expect(response.headers.get("x-cache")).toBeNull();
  });

  it("is linked from every page's head", async () => {
    const html = await (await fetch(`${site.app.url}/`)).text();
    expect(html).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32"/>');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>');
  });
});
