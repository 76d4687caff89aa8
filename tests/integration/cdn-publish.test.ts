import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { RedisServer } from "../support/redis-server.ts";
import { getPage as get } from "../support/site-requests.ts";
import { TEST_ACCOUNT_API_SECRET } from "../support/site-secret.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { startVarnish } from "../support/varnish.ts";
import { until } from "../support/wait.ts";

// Publishes through the real Strapi, two production site instances sharing a real Redis, a real
// Varnish in front of both (round robin): every publish is purged from the CDN after the site
// took it (docs/decisions/0028-publish-to-visible-at-the-edge.md). The CMS answers the editor once
// the site has rendered the page again and the purge is done, so from the editor's answer on,
// nobody gets the old page, from either instance or from the CDN; the CDN never keeps an old
// render (asked after the purge: its HITs are the new page). A bulk publish of 50 pages is one
// revalidation and one purge.
const secrets = {
  CMS_REVALIDATE_SECRET: "cdn-publish-revalidate-secret-0123456789",
  CMS_CDN_PURGE_SECRET: "cdn-publish-purge-secret-0123456789",
};
const PAGES = "/content-manager/collection-types/api::page.page";
const redis = new RedisServer(await getPort());
const cdnPort = await getPort();
const edgeEnv = {
  ...secrets,
  REDIS_URL: redis.url,
  CDN_PROVIDER: "http",
  CDN_PURGE_URL: `http://127.0.0.1:${cdnPort}`,
};
beforeAll(() => redis.start(), 30_000);
const site = strapiSite("cdn-publish", { cmsEnv: () => secrets, appEnv: edgeEnv });
let other: AppHandle;
let cdn: Awaited<ReturnType<typeof startVarnish>>;
let admin: StrapiAdmin;

beforeAll(async () => {
  const port = await getPort();
  other = await startApp({
    port,
    env: {
      ...edgeEnv,
      CMS_URL: site.cms.url,
      CMS_REST_READONLY_API_KEY: site.cms.token,
      CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
      // Renders are made for the one public address, whichever instance makes them.
      APP_PUBLIC_URL: site.app.url,
    },
  });
  cdn = await startVarnish({ port: cdnPort, backendPort: [Number(new URL(site.app.url).port), port] });
  admin = await StrapiAdmin.login(site.cms.url);
}, 120_000);

afterAll(async () => {
  await cdn?.stop();
  await other?.stop();
  await redis.stop();
}, 60_000);

const slug = (name: string) => `edge-${name}-${Date.now().toString(36)}`;

/** A new page at /<slug>, published, and kept by the CDN and by both instances. */
async function pageAtTheEdge(name: string, title: string): Promise<string> {
  const { data } = (await admin.call("POST", `${PAGES}?locale=en`, { title, slug: name })) as {
    data: { documentId: string };
  };
  await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
  for (const base of [site.app.url, other.url])
    await until(
      `/${name} cached at ${base}`,
      () => get(base, `/${name}`),
      (answer) => answer.status === 200 && answer.cache === "HIT" && answer.text.includes(title),
    );
  await until(
    `/${name} kept by the CDN`,
    () => get(cdn.url, `/${name}`),
    (answer) => answer.cdn === "HIT" && answer.text.includes(title),
  );
  return data.documentId;
}

describe("a publish behind a CDN, through the real Strapi, two instances and Varnish", () => {
  it("the CDN keeps a page for a day (CDN_S_MAXAGE's default with a purged CDN)", async () => {
    const name = slug("ttl");
    await pageAtTheEdge(name, `Page ${name}`);
    const answer = await get(site.app.url, `/${name}`);
    expect(answer.headers.get("cdn-cache-control")).toBe("public, s-maxage=86400, stale-while-revalidate=86400");
  }, 60_000);

  it("from the editor's answer on, neither instance nor the CDN serves the old page; the CDN keeps the new one", async () => {
    const name = slug("publish");
    const id = await pageAtTheEdge(name, `Old ${name}`);
    const old: string[] = [];
    for (let round = 1; round <= 5; round += 1) {
      const title = `New ${round} ${name}`;
      await admin.call("PUT", `${PAGES}/${id}?locale=en`, { title });
      await admin.call("POST", `${PAGES}/${id}/actions/publish?locale=en`, {});
      // The editor has the answer: ask the CDN first (its fetch goes to either instance), then both instances.
      for (const [where, base] of [
        ["cdn", cdn.url],
        ["cdn again", cdn.url],
        ["instance A", site.app.url],
        ["instance B", other.url],
      ] as const) {
        const answer = await get(base, `/${name}`);
        if (!answer.text.includes(title)) old.push(`round ${round}, ${where}: ${answer.cache} ${answer.cdn}`);
      }
      // Asked after the purge, the CDN holds the new render, never the old one.
      const kept = await get(cdn.url, `/${name}`);
      expect(kept.cdn).toBe("HIT");
      expect(kept.text).toContain(title);
    }
    expect(old, "old pages served after the editor's answer").toEqual([]);
    // The site logged each revalidation (re-rendered) before the purge of its paths.
    const log = site.app.output();
    const revalidated = log.lastIndexOf(`[revalidate] uid=api::page.page paths=/en/${name},/${name} `);
    const purged = log.lastIndexOf(`PURGE /${name}`);
    expect(revalidated).toBeGreaterThanOrEqual(0);
    expect(purged).toBeGreaterThan(revalidated);
    expect(log.slice(revalidated)).toMatch(/rendered=[1-9]/);
  }, 120_000);

  it("a page's client-side data (.data) the CDN kept as a 404 before its publish is gone with the publish", async () => {
    // A navbar link to a page not published yet: a prefetch (or an early visitor) makes the CDN keep
    // its `.data` 404 for a day; the purge of the page's URL alone would leave it there.
    const name = slug("data");
    const notYet = await until(
      `/${name}.data kept by the CDN as a 404`,
      () => get(cdn.url, `/${name}.data`),
      (answer) => answer.cdn === "HIT",
    );
    expect(notYet.status).toBe(404);
    const { data } = (await admin.call("POST", `${PAGES}?locale=en`, { title: `Data ${name}`, slug: name })) as {
      data: { documentId: string };
    };
    await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
    // The editor has the answer: the CDN's copy went with the path's tag (path:/<name>).
    const published = await get(cdn.url, `/${name}.data`);
    expect(published.status, published.text.slice(0, 200)).toBe(200);
    expect(published.text).toContain(`Data ${name}`);
  }, 60_000);

  it("a tag publish (the navbar: every page, not re-rendered first): the CDN never keeps an old render", async () => {
    const name = slug("navbar");
    await pageAtTheEdge(name, `Page ${name}`);
    const label = `Nav ${Date.now().toString(36)}`;
    await admin.setLinks("api::navbar.navbar", "en", [{ label, url: "/company" }]);
    // After the purge: whatever the CDN answers from its store (HIT) is the new render. An old
    // render may come through once (the origin's STALE answer, which says no-store), never stored.
    const seen: string[] = [];
    await until(
      "the CDN to keep the page with the new navbar",
      async () => {
        const answer = await get(cdn.url, `/${name}`);
        seen.push(`${answer.cdn} ${answer.cache ?? "-"} ${answer.text.includes(label) ? "new" : "old"}`);
        return answer;
      },
      (answer) => answer.cdn === "HIT" && answer.text.includes(label),
    );
    expect(seen.filter((line) => line.startsWith("HIT") && line.endsWith("old"))).toEqual([]);
    for (const line of seen.filter((line) => line.endsWith("old"))) expect(line).toMatch(/^MISS STALE/);
  }, 60_000);

  it("a bulk publish of 50 pages: one revalidation, one purge request", async () => {
    const names = Array.from({ length: 50 }, (_, n) => slug(`bulk-${n}`));
    const ids: string[] = [];
    for (const name of names) {
      const { data } = (await admin.call("POST", `${PAGES}?locale=en`, { title: `Bulk ${name}`, slug: name })) as {
        data: { documentId: string };
      };
      ids.push(data.documentId);
    }
    const from = site.app.output().length;
    await admin.call("POST", `${PAGES}/actions/bulkPublish?locale=en`, { documentIds: ids });
    // The editor's answer came after the revalidation and the purge: both are in the site's log now.
    const log = site.app.output().slice(from);
    const revalidations = log.split("\n").filter((line) => line.includes("[revalidate] uid="));
    const purges = log.split("\n").filter((line) => line.includes("[cdn-purge] provider=http"));
    expect(revalidations, revalidations.join("\n")).toHaveLength(1);
    expect(revalidations[0]).toContain("batched=50");
    for (const name of names) expect(revalidations[0]).toContain(`/${name},`);
    expect(purges).toHaveLength(1);
    // One BAN for the tags (at most 100 a request), a PURGE per path.
    expect(purges[0]).toContain("BAN tags");
    expect(other.output()).not.toContain("[cdn-purge]");
    for (const name of [names[0], names[49]]) {
      const answer = await get(cdn.url, `/${name}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(`Bulk ${name}`);
    }
  }, 120_000);
});
