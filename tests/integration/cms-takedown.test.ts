import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "get-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { startVarnish } from "../support/varnish.ts";

// Takedowns through the real Strapi: an editor unpublishes or deletes a page in the admin API;
// the CMS's own revalidation (document middleware → POST /api/cms-revalidate with expire) reaches
// the production site, and the very next request after it is a 404, never the old page (not
// even once STALE). The CMS then purges the CDN in front (a real Varnish), only after the site's
// 200, so the CDN's next fetch gets the 404 too.
const REVALIDATE_SECRET = "takedown-revalidate-secret-0123456789";
const PURGE_SECRET = "takedown-cdn-purge-secret-0123456789";
const PAGES = "/content-manager/collection-types/api::page.page";
const dir = mkdtempSync(path.join(tmpdir(), "cms-takedown-"));
let cms: CmsHandle;
let app: AppHandle;
let cdn: Awaited<ReturnType<typeof startVarnish>>;
let admin: StrapiAdmin;

beforeAll(async () => {
  const [cmsPort, appPort, cdnPort] = [await getPort(), await getPort(), await getPort()];
  cms = await startCms({
    port: cmsPort,
    dbFile: path.join(dir, "cms.db"),
    fresh: true,
    env: {
      CLIENT_URL: `http://127.0.0.1:${appPort}`,
      CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
      CMS_CDN_PURGE_SECRET: PURGE_SECRET,
    },
  });
  app = await startApp({
    port: appPort,
    env: {
      CMS_URL: cms.url,
      CMS_REST_READONLY_API_KEY: cms.token,
      CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
      CMS_CDN_PURGE_SECRET: PURGE_SECRET,
      CDN_PROVIDER: "http",
      CDN_PURGE_URL: `http://127.0.0.1:${cdnPort}`,
    },
  });
  cdn = await startVarnish({ port: cdnPort, backendPort: appPort });
  admin = await StrapiAdmin.login(cms.url);
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await cms?.stop();
  await cdn?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function get(base: string, pagePath: string) {
  const response = await fetch(`${base}${pagePath}`, { redirect: "manual" });
  const text = await response.text();
  return {
    status: response.status,
    cache: response.headers.get("x-cache"),
    cdn: response.headers.get("x-cdn-cache"),
    text,
  };
}

/** A new page, published, its publish revalidated on the site, and cached there (HIT). */
async function cachedPage(slug: string): Promise<string> {
  const from = app.output().length;
  const { data } = (await admin.call("POST", `${PAGES}?locale=en`, { title: `Page ${slug}`, slug })) as {
    data: { documentId: string };
  };
  await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
  await revalidated(slug, from);
  await until(
    `/${slug} to be cached`,
    () => get(app.url, `/${slug}`),
    (answer) => answer.status === 200 && answer.cache === "HIT",
  );
  return data.documentId;
}

/** Polls `read` until `found` says yes, within a deadline (the CMS revalidates after its answer, detached). */
async function until<T>(
  what: string,
  read: () => T | Promise<T>,
  found: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (found(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The site has applied the CMS's revalidation of `/<slug>` (its log line, written once the invalidation is recorded). */
const revalidated = (slug: string, from: number) =>
  until(
    `the site to log the revalidation of /${slug}`,
    () => app.output().slice(from),
    (log) => log.includes(`[revalidate] uid=api::page.page paths=/en/${slug},/${slug} `),
  );

const slug = (name: string) => `takedown-${name}-${Date.now().toString(36)}`;

describe("a takedown in the real Strapi", () => {
  it("unpublish: the very next request to the site after the CMS's revalidation is a 404 (MISS), never the old page", async () => {
    const page = slug("unpublish");
    const id = await cachedPage(page);

    const from = app.output().length;
    await admin.call("POST", `${PAGES}/${id}/actions/unpublish?locale=en`, {});
    await revalidated(page, from);
    const next = await get(app.url, `/${page}`);
    expect(next, "the first request after the unpublish reached the site").toMatchObject({
      status: 404,
      cache: "MISS",
    });
    expect(next.text).not.toContain(`Page ${page}`);
    expect(app.output().slice(from)).toMatch(new RegExp(`paths=/en/${page},/${page} tags=\\S* expire`));
  }, 30_000);

  it("delete: the same, at once", async () => {
    const page = slug("delete");
    const id = await cachedPage(page);

    const from = app.output().length;
    await admin.call("DELETE", `${PAGES}/${id}?locale=en`);
    await revalidated(page, from);
    expect(await get(app.url, `/${page}`)).toMatchObject({ status: 404, cache: "MISS" });
  }, 30_000);

  it("the CDN is purged after the site answered the takedown, so its next fetch is the 404", async () => {
    const page = slug("cdn");
    const id = await cachedPage(page);
    await until(
      `/${page} to be kept by the CDN`,
      () => get(cdn.url, `/${page}`),
      (answer) => answer.status === 200 && answer.cdn === "HIT",
    );

    const from = app.output().length;
    await admin.call("POST", `${PAGES}/${id}/actions/unpublish?locale=en`, {});
    // The site logs the purge it made for the CMS (PURGE /<path> to Varnish).
    const log = await until(
      "the CMS's CDN purge",
      () => app.output().slice(from),
      (text) => text.includes(`[cdn-purge] provider=http`) && text.includes(`PURGE /${page}`),
    );
    // In that order: the revalidation was answered before the purge was asked for.
    expect(log.indexOf(`[revalidate] uid=api::page.page paths=/en/${page},/${page} `)).toBeGreaterThanOrEqual(0);
    expect(log.indexOf(`[revalidate] uid=api::page.page paths=/en/${page},/${page} `)).toBeLessThan(
      log.indexOf("[cdn-purge]"),
    );
    expect(await get(cdn.url, `/${page}`)).toMatchObject({ status: 404, cdn: "MISS" });
    const cmsLog = await until(
      "the CMS to log the purge's answer",
      () => readFileSync(`${cms.dbFile}.log`, "utf8"),
      (text) => text.includes(`[cdn-purge] after takedown {"paths":["/en/${page}","/${page}"]`),
    );
    expect(cmsLog).toMatch(
      new RegExp(`\\[cdn-purge\\] after takedown \\{"paths":\\["/en/${page}","/${page}"\\][^\\n]*→ 200`),
    );
  }, 30_000);
});
