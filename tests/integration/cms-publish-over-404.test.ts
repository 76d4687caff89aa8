import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { RedisServer } from "../support/redis-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "../support/site-secret.ts";
import { getPage as get } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";

// Issue 30, point 6, through the real Strapi and two production instances sharing a real Redis: an
// address a visitor asked for before (its 404 cached) gets a page in the admin API. The first
// request after the admin's answer to the publish must show the new page, on the instance the CMS
// told (A) and on the other one (B, told through Redis), for the page and its `.data` twin. Before
// the fix it was `404 STALE` (the invalidation only marked the 404 stale), or `404 HIT` when the
// request overtook the CMS's revalidation (a publish was not waited for).
const secrets = { CMS_REVALIDATE_SECRET: "publish-404-revalidate-secret-0123456789" };
const PAGES = "/content-manager/collection-types/api::page.page";
const redis = new RedisServer(await getPort());
const secondPort = await getPort();
let admin: StrapiAdmin;
let b: AppHandle;

// Registered before strapiSite's own beforeAll: Redis is up before the site starts.
beforeAll(() => redis.start());
const site = strapiSite("publish-over-404", { cmsEnv: () => secrets, appEnv: { ...secrets, REDIS_URL: redis.url } });

beforeAll(async () => {
  admin = await StrapiAdmin.login(site.cms.url);
  b = await startApp({
    port: secondPort,
    env: {
      CMS_URL: site.cms.url,
      CMS_REST_READONLY_API_KEY: site.cms.token,
      CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
      REDIS_URL: redis.url,
      ...secrets,
    },
  });
}, 120_000);

afterAll(async () => {
  await b?.stop();
  await redis.stop();
});

const slug = (name: string) => `over-404-${name}-${Date.now().toString(36)}`;

/** `path` asked for twice on `base`: a 404, then the same 404 from the cache (HIT). */
async function cachedNotFound(base: string, path: string) {
  expect((await get(base, path)).status, path).toBe(404);
  expect(await get(base, path), path).toMatchObject({ status: 404, cache: "HIT" });
}

/** A new page at /<slug>, created and published in the admin API as an editor does; resolves with the admin's answer. */
async function publishPage(page: string) {
  const { data } = (await admin.call("POST", `${PAGES}?locale=en`, { title: `Page ${page}`, slug: page })) as {
    data: { documentId: string };
  };
  await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
}

describe("a page published where a 404 was cached", () => {
  it("the first request after the admin's answer renders the new page, 5 times of 5", async () => {
    const served: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      const page = slug(`round-${round}`);
      await cachedNotFound(site.app.url, `/${page}`);
      await admin.revalidationsSettled();
      await publishPage(page);
      const next = await get(site.app.url, `/${page}`);
      if (next.status !== 200 || !next.text.includes(`Page ${page}`))
        served.push(`${page}: ${next.status} ${next.cache}`);
    }
    expect(served, "404s served right after the publish").toEqual([]);
  }, 120_000);

  it("its .data twin (client-side navigation) too", async () => {
    const page = slug("data");
    await cachedNotFound(site.app.url, `/${page}.data`);
    await publishPage(page);
    const next = await get(site.app.url, `/${page}.data`);
    expect(next.status).toBe(200);
    expect(next.text).toContain(`Page ${page}`);
  }, 60_000);

  it("on another instance, told through Redis: the page and its .data", async () => {
    const page = slug("redis");
    await cachedNotFound(b.url, `/${page}`);
    await cachedNotFound(b.url, `/${page}.data`);
    await publishPage(page);
    const next = await get(b.url, `/${page}`);
    expect(next).toMatchObject({ status: 200, cache: "MISS" });
    expect(next.text).toContain(`Page ${page}`);
    const data = await get(b.url, `/${page}.data`);
    expect(data.status).toBe(200);
    expect(data.text).toContain(`Page ${page}`);
  }, 60_000);
});
