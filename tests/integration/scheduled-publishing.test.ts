import { readFileSync } from "node:fs";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { adminCall, adminOk, adminWithRole, superAdminToken } from "../support/admin-users.ts";
import { getPage } from "../support/site-requests.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Issue 32, point 3 (docs/scheduled-publishing.md): "publish at" and "unpublish at" through the
// real Strapi and the production site (page cache on). A Strapi of its own, not the shared one:
// the CMS must revalidate THIS file's site when the scheduler publishes (its CLIENT_URL), tick
// every second (CMS_SCHEDULE_CRON) so a schedule a few seconds ahead is done in seconds, and be
// restarted (a schedule survives it). No test waits for a clock: each waits for the event (the
// page appearing or leaving) with a deadline computed from the schedule: the time left until it
// is due, one tick, and the publish-to-visible time.

const secrets = { CMS_REVALIDATE_SECRET: "schedule-revalidate-secret-0123456789" };
const TICK_MS = 1_000;
const site = strapiSite("scheduled-publishing", {
  cmsEnv: () => ({ ...secrets, CMS_SCHEDULE_CRON: "* * * * * *" }),
  appEnv: secrets,
});

/** From the CMS's publish to the page on the site: revalidation, re-render, under a loaded test machine. */
const PUBLISH_TO_VISIBLE_MS = 15_000;
/** How far ahead the tests schedule: the time to check the state before it is due. */
const LEAD_MS = 4_000;
const ARTICLES = "/content-manager/collection-types/api::article.article";
const PAGES = "/content-manager/collection-types/api::page.page";
const run = Date.now().toString(36);
const get = (sitePath: string) => getPage(site.app.url, sitePath);

type Json = Record<string, any>;
let superToken: string;

beforeAll(async () => {
  superToken = await superAdminToken(site.cms.url);
});

/** The Super Admin's call, which must succeed. */
const admin = {
  call: (method: string, apiPath: string, body?: unknown) => adminOk(site.cms.url, method, apiPath, superToken, body),
};
/** The Super Admin's call, whatever its answer. */
const attempt = (method: string, apiPath: string, body?: unknown) =>
  adminCall(site.cms.url, method, apiPath, { token: superToken, body });

const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();
/** A deadline for what follows a schedule due at `at`: until then, one tick, the publish-to-visible time. */
const deadlineFor = (at: string) => Math.max(0, Date.parse(at) - Date.now()) + TICK_MS + PUBLISH_TO_VISIBLE_MS;

async function draftArticle(
  name: string,
  fields: Json = {},
): Promise<{ documentId: string; slug: string; title: string }> {
  const slug = `${name}-${run}`;
  const title = `Scheduled ${name} ${run}`;
  const { data } = (await admin.call("POST", `${ARTICLES}?locale=en`, { title, slug, ...fields })) as { data: Json };
  return { documentId: data.documentId, slug, title };
}

const draftOf = async (documentId: string) =>
  ((await admin.call("GET", `${ARTICLES}/${documentId}?locale=en`)) as { data: Json }).data;

describe("what visitors see", () => {
  it("the seeded article scheduled for 2099 is on no page, in either locale: not its address, the blog, the feed, the sitemap", async () => {
    expect((await get("/blog/acme-4-preview")).status).toBe(404);
    expect((await get("/de/blog/acme-4-vorschau")).status).toBe(404);
    for (const listing of ["/blog", "/blog/rss.xml", "/de/blog", "/de/blog/rss.xml", "/sitemap.xml"]) {
      const page = await get(listing);
      expect(page.status, listing).toBe(200);
      expect(page.text, listing).not.toMatch(/acme-4-(preview|vorschau)|Acme 4\.0/);
    }
  });

  it("an article scheduled seconds ahead goes live when due, at the top of the blog and the feed, dated the scheduled time", async () => {
    const publishAt = ahead(LEAD_MS);
    const article = await draftArticle("soon", { publishAt });
    expect((await draftOf(article.documentId)).status).toBe("draft");

    const page = await until(
      `/blog/${article.slug} to be published at ${publishAt}`,
      () => get(`/blog/${article.slug}`),
      (answer) => answer.status === 200,
      { timeoutMs: deadlineFor(publishAt), intervalMs: 200 },
    );
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(publishAt));
    // Dated the scheduled time, not the moment the scheduler came round.
    expect(page.text).toContain(`<time dateTime="${publishAt}">`);
    // The blog listing too (cached by the first test, stale once revalidated).
    const blog = await until(
      "the blog listing to show it first",
      () => get("/blog"),
      (answer) => answer.text.includes(`/blog/${article.slug}`),
      { timeoutMs: PUBLISH_TO_VISIBLE_MS },
    );
    // First in the listing (the page's main part: the navbar links an article too).
    const listing = blog.text.slice(blog.text.indexOf("<main"));
    expect(listing.indexOf(`href="/blog/${article.slug}"`)).toBe(listing.search(/href="\/blog\/[a-z0-9-]+"/));
    // The feed was cached by the first test: the revalidation makes it stale, the next request renders it anew.
    const feed = await until(
      "the feed to list it",
      () => get("/blog/rss.xml"),
      (answer) => answer.text.includes(`<title>${article.title}</title>`),
      { timeoutMs: PUBLISH_TO_VISIBLE_MS },
    );
    expect(feed.text).toContain(`<pubDate>${new Date(publishAt).toUTCString()}</pubDate>`);
    // The CMS: published, the schedule done (cleared), publishDate the scheduled time.
    const after = await draftOf(article.documentId);
    expect(after).toMatchObject({ status: "published", publishAt: null, publishDate: publishAt });

    // "Unpublish at" on the live article: it leaves the site when due.
    const unpublishAt = ahead(LEAD_MS);
    await admin.call("PUT", `${ARTICLES}/${article.documentId}?locale=en`, { unpublishAt });
    expect((await get(`/blog/${article.slug}`)).status).toBe(200);
    await until(
      `/blog/${article.slug} to be taken down at ${unpublishAt}`,
      () => get(`/blog/${article.slug}`),
      (answer) => answer.status === 404,
      { timeoutMs: deadlineFor(unpublishAt), intervalMs: 200 },
    );
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(unpublishAt));
    expect(await draftOf(article.documentId)).toMatchObject({ status: "draft", unpublishAt: null });
  });
});

describe("what editors meet", () => {
  it("Publish pressed while 'publish at' is ahead: 400 saying what to do, nothing published", async () => {
    const publishAt = "2099-01-01T09:00:00.000Z";
    const article = await draftArticle("publish-pressed", { publishAt });
    const pressed = await attempt("POST", `${ARTICLES}/${article.documentId}/actions/publish?locale=en`, {});
    expect(pressed.status).toBe(400);
    expect(pressed.body.error.message).toContain(`scheduled to be published at ${publishAt}`);
    expect(pressed.body.error.message).toContain('clear "Publish at" and press Publish');
    expect((await draftOf(article.documentId)).status).toBe("draft");
    expect((await get(`/blog/${article.slug}`)).status).toBe(404);
  });

  it("a publish date still to come (issue 32's June article): 400, not live at once", async () => {
    const article = await draftArticle("dated-june", { publishDate: "2099-06-01T09:00:00.000Z" });
    const pressed = await attempt("POST", `${ARTICLES}/${article.documentId}/actions/publish?locale=en`, {});
    expect(pressed.status).toBe(400);
    expect(pressed.body.error.message).toContain("has not come yet");
    expect((await get(`/blog/${article.slug}`)).status).toBe(404);
    expect((await get("/blog")).text).not.toContain(article.slug);
  });

  it("an Author, who may not publish, cannot schedule: 403 with the reason, nothing written; their saves pass", async () => {
    const author = await adminWithRole(site.cms.url, superToken, "strapi-author", `Sched${run}`);
    const call = (method: string, apiPath: string, body?: unknown) =>
      adminCall(site.cms.url, method, apiPath, { token: author, body });
    const created = await call("POST", `${ARTICLES}?locale=en`, { title: "Author draft", slug: `author-${run}` });
    expect(created.status).toBe(201);
    const id = created.body.data.documentId as string;
    const scheduled = await call("PUT", `${ARTICLES}/${id}?locale=en`, { publishAt: ahead(60_000) });
    expect(scheduled.status).toBe(403);
    expect(scheduled.body.error.message).toContain('cannot set "Publish at" or "Unpublish at"');
    expect((await draftOf(id)).publishAt).toBeNull();
    // A create that carries a schedule: refused too.
    const createdScheduled = await call("POST", `${ARTICLES}?locale=en`, {
      title: "Author scheduled",
      slug: `author-scheduled-${run}`,
      publishAt: ahead(60_000),
    });
    expect(createdScheduled.status).toBe(403);
    // The edit view sends every field: an unchanged (empty) schedule saves.
    const saved = await call("PUT", `${ARTICLES}/${id}?locale=en`, { title: "Author draft 2", publishAt: null });
    expect(saved.status).toBe(200);
  });
});

describe("a schedule survives a restart", () => {
  it("a page due while the CMS restarts is published by the new start", async () => {
    const slug = `restart-${run}`;
    const publishAt = ahead(LEAD_MS);
    const { data } = (await admin.call("POST", `${PAGES}?locale=en`, { title: `Restart ${run}`, slug, publishAt })) as {
      data: Json;
    };
    const restartedAt = Date.now();
    await site.restartCms();
    const page = await until(
      `/${slug} to be published after the restart`,
      () => get(`/${slug}`),
      (answer) => answer.status === 200,
      { timeoutMs: deadlineFor(publishAt) + (Date.now() - restartedAt), intervalMs: 200 },
    );
    expect(page.text).toContain(`Restart ${run}`);
    // By the new start (its scheduler's first line comes before the publish), once.
    const log = readFileSync(path.join(site.dir, "cms.db.log"), "utf8");
    const starts = [...log.matchAll(/\[schedule\] scheduled publishing of/g)].map((match) => match.index);
    const published = [
      ...log.matchAll(new RegExp(`\\[schedule\\] published api::page\\.page ${data.documentId}`, "g")),
    ];
    expect(starts).toHaveLength(2);
    expect(published).toHaveLength(1);
    expect(published[0]!.index).toBeGreaterThan(starts[1]!);
  });
});
