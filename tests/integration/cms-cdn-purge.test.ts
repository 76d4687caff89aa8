import { describe, expect, it } from "vitest";

import { strapiSite } from "../support/strapi-site.ts";

// The CMS's admin action "purge the CDN": Strapi → the site's /api/cdn-purge (with the CDN
// purge secret) → the CDN (a real Varnish in front of the site).
const secret = { CMS_CDN_PURGE_SECRET: "cdn-purge-secret-0123456789abcdef" };
const site = strapiSite("cms-cdn-purge", { cmsEnv: () => secret, appEnv: secret, cdn: true });

async function adminToken(): Promise<string> {
  const response = await fetch(`${site.cms.url}/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: "Admin12345" }),
  });
  return ((await response.json()) as { data: { token: string } }).data.token;
}

const purge = (body: unknown, token?: string) =>
  fetch(`${site.cms.url}/site-cache/cdn-purge`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe("purging the CDN from the CMS", () => {
  it("an admin purges paths, tags and everything, through the site, with the purge secret", async () => {
    const viaCdn = async (page: string) => {
      const response = await fetch(`${site.cdn.url}${page}`);
      await response.arrayBuffer();
      return response.headers.get("x-cdn-cache");
    };
    await viaCdn("/company");
    expect(await viaCdn("/company")).toBe("HIT");
    const token = await adminToken();
    const byPath = await purge({ paths: ["/company"] }, token);
    expect(byPath.status, await byPath.clone().text()).toBe(200);
    expect(await byPath.json()).toMatchObject({
      // the URL, and the path's tag (its .data twin, query variants, cached 404s)
      data: { purged: true, provider: "http", requests: ["PURGE /company", "BAN tags path:/company"] },
    });
    expect(await viaCdn("/company")).toBe("MISS");
    for (const body of [{ tags: ["cms:api::navbar.navbar"] }, { everything: true }]) {
      const response = await purge(body, token);
      expect(response.status, await response.text()).toBe(200);
    }
    expect(await viaCdn("/company")).toBe("MISS");
  });

  it("refuses without an admin token (401) and with a bad body (400)", async () => {
    expect((await purge({ everything: true })).status).toBe(401);
    expect((await purge({ everything: true }, "not-a-token")).status).toBe(401);
    const bad = await purge({ paths: ["company"] }, await adminToken());
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/must start with \//);
  });
});
