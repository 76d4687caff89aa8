import { beforeAll, describe, expect, it } from "vitest";

import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Issue 23, point 2, through the real Strapi and the production site (page cache on): articles,
// their categories and authors (docs/cms-contract.md, "Articles"). This file makes its own
// category, author and articles through the admin's content-manager API, as an editor does, and
// reads the site over plain HTTP (no JavaScript): the listing's order and paging, a 404 past the
// last page and for junk `?page=`, an article with its author and previous/next links, the
// category page, the RSS feed, the sitemap and hreflang, a publish date that a republish does not
// move, and the CMS's own revalidation when an article is published, edited and unpublished.

const secrets = { CMS_REVALIDATE_SECRET: "articles-revalidate-secret-0123456789" };
const site = strapiSite("cms-articles", { cmsEnv: () => secrets, appEnv: secrets });

const ARTICLES = "/content-manager/collection-types/api::article.article";
const CATEGORIES = "/content-manager/collection-types/api::category.category";
const AUTHORS = "/content-manager/collection-types/api::author.author";
const run = Date.now().toString(36);
const get = (path: string) => getPage(site.app.url, path);

let admin: StrapiAdmin;
let categoryId: string;
let authorId: string;

interface Made {
  documentId: string;
  slug: string;
  title: string;
}

/** Creates an article in en (and de) and publishes it. `publishDate` as given (none: the CMS sets it). */
async function publishedArticle(
  name: string,
  fields: { publishDate?: string; category?: boolean; title?: string; de?: boolean } = {},
): Promise<Made> {
  const slug = `${name}-${run}`;
  const title = fields.title ?? `Article ${name} ${run}`;
  const relations = (locale: string) => ({
    author: { connect: [{ documentId: authorId }] },
    ...(fields.category ? { category: { connect: [{ documentId: categoryId, locale }] } } : {}),
  });
  const { data } = (await admin.call("POST", `${ARTICLES}?locale=en`, {
    title,
    slug,
    excerpt: `Excerpt of ${name}`,
    body: [{ type: "paragraph", children: [{ type: "text", text: `Body of ${name}` }] }],
    ...(fields.publishDate ? { publishDate: fields.publishDate } : {}),
    ...relations("en"),
  })) as { data: { documentId: string } };
  await admin.call("POST", `${ARTICLES}/${data.documentId}/actions/publish?locale=en`, {});
  if (fields.de) {
    await admin.call("PUT", `${ARTICLES}/${data.documentId}?locale=de`, {
      title: `Artikel ${name} ${run}`,
      slug: `de-${slug}`,
      ...(fields.publishDate ? { publishDate: fields.publishDate } : {}),
      ...relations("de"),
    });
    await admin.call("POST", `${ARTICLES}/${data.documentId}/actions/publish?locale=de`, {});
  }
  return { documentId: data.documentId, slug, title };
}

/** The newest published article in a locale (the listing's order), through the site's token. */
async function newestArticle(locale: string): Promise<string> {
  const query = new URLSearchParams({
    locale,
    "sort[0]": "publishDate:desc",
    "sort[1]": "slug:asc",
    "pagination[pageSize]": "1",
    "fields[0]": "slug",
  });
  const response = await fetch(`${site.cms.url}/api/articles?${query}`, {
    headers: { authorization: `Bearer ${site.cms.token}` },
  });
  const { data } = (await response.json()) as { data: Array<{ documentId: string }> };
  return data[0]!.documentId;
}

/**
 * The revalidations the site logged (its `event: "revalidation"` lines) in a stretch of its output,
 * without the field tags of C7 (cms/tests/plugins/site-cache/…/field-tags.test.js checks them).
 */
const revalidations = (log: string) =>
  log
    .split("\n")
    .filter((line) => line.includes('"event":"revalidation"'))
    .map((line) => JSON.parse(line) as { uid: string; paths: string[]; tags: string[]; expire: boolean })
    .map((sent) => ({ ...sent, tags: sent.tags.filter((tag) => !tag.includes(":field:")) }));

/** The titles of the article cards of a listing's HTML, in order. */
const cardTitles = (html: string) =>
  [...html.matchAll(/<li class="article-card">.*?<h2><a href="[^"]*"[^>]*>([^<]*)<\/a><\/h2>/g)].map((m) => m[1]);

/** The admin's view of an article in a locale, published or draft. */
async function adminArticle(documentId: string, locale: string, status: "published" | "draft") {
  const { data } = (await admin.call("GET", `${ARTICLES}/${documentId}?locale=${locale}&status=${status}`)) as {
    data: { publishDate: string | null; publishedAt: string | null; title: string };
  };
  return data;
}

// 12 dated articles, a day apart in 2020 (older than the seeded ones of 2026): the first three in
// this file's category, the fifth also in German.
const dated: Made[] = [];
const day = (index: number) => new Date(Date.UTC(2020, 0, 1 + index, 9)).toISOString();

beforeAll(async () => {
  admin = await StrapiAdmin.login(site.cms.url);
  const category = (await admin.call("POST", `${CATEGORIES}?locale=en`, {
    name: `Testing & more ${run}`,
    slug: `testing-${run}`,
  })) as { data: { documentId: string } };
  categoryId = category.data.documentId;
  await admin.call("PUT", `${CATEGORIES}/${categoryId}?locale=de`, { name: `Testen ${run}`, slug: `testen-${run}` });
  const author = (await admin.call("POST", AUTHORS, { name: "Grace Tester", role: "QA lead" })) as {
    data: { documentId: string };
  };
  authorId = author.data.documentId;
  for (let index = 0; index < 12; index++) {
    dated.push(
      await publishedArticle(`dated-${String(index).padStart(2, "0")}`, {
        publishDate: day(index),
        category: index < 3,
        de: index === 4,
      }),
    );
  }
  // Their revalidations delivered (publishes close together go as one batch, up to a second late):
  // none may turn a page a test has just cached STALE.
  await admin.revalidationsSettled();
}, 120_000);

describe("articles through the real Strapi", () => {
  it("/blog: newest first, 10 a page, ?page=2 the rest, 404 past the last page and for junk values", async () => {
    const seeded = ["Acme 3.0 is out", "Caching pages &amp; keeping them fresh", "How we ship twice a day"];
    const first = await get("/blog");
    expect(first.status).toBe(200);
    const newestDated = [...dated].reverse().map((article) => article.title);
    // The four seeded articles of 2026, then the newest six of this file's 2020 ones.
    expect(cardTitles(first.text)).toEqual([...seeded, "Acme opens its Berlin office", ...newestDated.slice(0, 6)]);
    expect(first.text).toContain('<a rel="next" href="/blog?page=2"');
    expect(first.text).toContain("Page 1 of 2");

    const second = await get("/blog?page=2");
    expect(second.status).toBe(200);
    expect(cardTitles(second.text)).toEqual(newestDated.slice(6));
    expect(second.text).toContain('<a rel="prev" href="/blog"');
    expect(second.text).toMatch(/<link rel="canonical" href="[^"]*\/blog\?page=2"/);

    expect((await get("/blog?page=3")).status).toBe(404);
    // Junk values: a 404, one and the same cache entry for all of them (never one per value).
    const junk = await get("/blog?page=abc");
    expect(junk.status).toBe(404);
    expect(await get("/blog?page=-1")).toMatchObject({ status: 404, cache: "HIT" });
    expect(await get("/blog?page=1e3")).toMatchObject({ status: 404, cache: "HIT" });
    // `02` is page 2, served from page 2's entry.
    expect(await get("/blog?page=02")).toMatchObject({ status: 200, cache: "HIT" });
  }, 30_000);

  it("an article: title, date, author, category, body, previous (older) and next (newer) links, hreflang", async () => {
    const middle = dated[4]!;
    const page = await get(`/blog/${middle.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h1>${middle.title}</h1>`);
    expect(page.text).toContain(`<time dateTime="${day(4)}">`);
    expect(page.text).toContain('<span class="article-author">Grace Tester</span>');
    expect(page.text).toContain("Body of dated-04");
    expect(page.text).toContain(`<a rel="prev" href="/blog/${dated[3]!.slug}"`);
    expect(page.text).toContain(`<a rel="next" href="/blog/${dated[5]!.slug}"`);
    expect(page.text).toMatch(new RegExp(`<link rel="alternate" hrefLang="de" href="[^"]*/de/blog/de-${middle.slug}"`));
    expect(page.text).toMatch(new RegExp(`<link rel="alternate" hrefLang="en" href="[^"]*/blog/${middle.slug}"`));

    // The header's locale switcher leads to the German article, and back.
    expect(page.text).toContain(`href="/de/blog/de-${middle.slug}"`);
    const german = await get(`/de/blog/de-${middle.slug}`);
    expect(german.status).toBe(200);
    expect(german.text).toContain("Von");
    expect(german.text).toContain(`href="/blog/${middle.slug}"`);
    expect(german.text).toMatch(
      new RegExp(`<link rel="alternate" hrefLang="x-default" href="[^"]*/blog/${middle.slug}"`),
    );

    // The oldest has no previous; the English slug in German is no article.
    expect((await get(`/blog/${dated[0]!.slug}`)).text).not.toContain('rel="prev"');
    expect((await get(`/de/blog/${middle.slug}`)).status).toBe(404);
    expect((await get(`/blog/no-such-article-${run}`)).status).toBe(404);
  }, 30_000);

  it("the category page lists the category's articles only, escaped; an unknown category is a 404", async () => {
    const page = await get(`/blog/category/testing-${run}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h1>Testing &amp; more ${run}</h1>`);
    expect(cardTitles(page.text)).toEqual([dated[2]!.title, dated[1]!.title, dated[0]!.title]);
    expect(page.text).toMatch(new RegExp(`hrefLang="de" href="[^"]*/de/blog/category/testen-${run}"`));
    expect(page.text).toContain(`href="/de/blog/category/testen-${run}"`);
    expect((await get(`/blog/category/nothing-${run}`)).status).toBe(404);
    // The article shows its category, linked.
    expect((await get(`/blog/${dated[0]!.slug}`)).text).toContain(`href="/blog/category/testing-${run}"`);
  }, 30_000);

  it("the RSS feed, the sitemap and the latest-articles section of the seeded home page", async () => {
    const feed = await get("/blog/rss.xml");
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(feed.text).toContain("<title>Caching pages &amp; keeping them fresh</title>");
    expect(feed.text).toMatch(new RegExp(`<link>http://[^<]*/blog/${dated[11]!.slug}</link>`));
    expect(feed.text).toContain("<pubDate>Sun, 12 Jan 2020 09:00:00 GMT</pubDate>");
    expect((await get("/de/blog/rss.xml")).text).toContain(`<title>Artikel dated-04 ${run}</title>`);

    const sitemap = await get("/sitemap.xml");
    for (const path of ["/blog", "/de/blog", `/blog/${dated[4]!.slug}`, `/de/blog/de-${dated[4]!.slug}`]) {
      expect(sitemap.text).toMatch(new RegExp(`<loc>http://[^<]*${path.replace(/[/]/g, "\\/")}</loc>`));
    }
    expect(sitemap.text).toContain(`/blog/category/testing-${run}</loc>`);
    // The listing's later pages, as many as the site serves (10 a page), and no more; the
    // category's 3 articles fit on its first page.
    const count = await fetch(`${site.cms.url}/api/articles?locale=en&pagination[pageSize]=10&fields[0]=slug`, {
      headers: { authorization: `Bearer ${site.cms.token}` },
    });
    const { pageCount } = ((await count.json()) as { meta: { pagination: { pageCount: number } } }).meta.pagination;
    expect(pageCount).toBeGreaterThan(1);
    const listed = [...sitemap.text.matchAll(/<loc>http:\/\/[^/<]*\/blog\?page=(\d+)<\/loc>/g)].map((m) =>
      Number(m[1]),
    );
    expect(listed).toEqual(Array.from({ length: pageCount - 1 }, (_, i) => i + 2));
    expect((await get(`/blog?page=${pageCount}`)).status).toBe(200);
    expect((await get(`/blog?page=${pageCount + 1}`)).status).toBe(404);
    expect(sitemap.text).not.toContain(`/blog/category/testing-${run}?page=`);

    const home = await get("/");
    expect(home.text).toContain('<section class="section section-latest-articles"');
    expect(home.text).toContain('<a href="/blog/acme-3"');
  }, 30_000);

  it("a latest-articles section of a category lists that category's newest articles only (filtered by its documentId)", async () => {
    const PAGES = "/content-manager/collection-types/api::page.page";
    const pageSlug = `latest-of-category-${run}`;
    const { data } = (await admin.call("POST", `${PAGES}?locale=en`, {
      title: `Latest of a category ${run}`,
      slug: pageSlug,
      sections: [
        {
          __component: "sections.latest-articles",
          heading: `Testing ${run}`,
          count: 2,
          category: { connect: [{ documentId: categoryId, locale: "en" }] },
        },
      ],
    })) as { data: { documentId: string } };
    await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
    const page = await get(`/${pageSlug}`);
    expect(page.status).toBe(200);
    const links = [...page.text.matchAll(/<a href="\/blog\/([^"]+)"/g)].map((match) => match[1]);
    // The category's three articles are dated[0..2]: the newest two, not the newer ones of no category.
    expect(links).toContain(dated[2]!.slug);
    expect(links).toContain(dated[1]!.slug);
    expect(links).not.toContain(dated[0]!.slug);
    expect(links).not.toContain(dated[11]!.slug);
  }, 30_000);

  it("the publish date is set on the first publish and does not move when the article is edited and republished", async () => {
    const made = await publishedArticle("republish");
    const first = await adminArticle(made.documentId, "en", "published");
    expect(first.publishDate).toBeTruthy();
    await admin.call("PUT", `${ARTICLES}/${made.documentId}?locale=en`, { title: `Republished ${run}` });
    await admin.call("POST", `${ARTICLES}/${made.documentId}/actions/publish?locale=en`, {});
    const second = await adminArticle(made.documentId, "en", "published");
    expect(second.title).toBe(`Republished ${run}`);
    expect(second.publishedAt).not.toBe(first.publishedAt);
    expect(second.publishDate).toBe(first.publishDate);
    const page = await until(
      "the republished article on the site",
      () => get(`/blog/${made.slug}`),
      (answer) => answer.text.includes(`Republished ${run}`),
    );
    expect(page.text).toContain(`<time dateTime="${first.publishDate}">`);
  }, 30_000);

  it("publishing, editing and unpublishing an article revalidate /blog and its page (cache on)", async () => {
    // The listing cached before the publish.
    await until(
      "/blog to be cached",
      () => get("/blog"),
      (answer) => answer.cache === "HIT",
    );
    const newest = await newestArticle("en");
    // The earlier tests' publishes delivered: their batch must not land in this test's window.
    await admin.revalidationsSettled();
    let from = site.app.output().length;
    const fresh = await publishedArticle("fresh", { title: `Fresh news ${run}` });
    await until(
      "the site to log the article's revalidation",
      () => site.app.output().slice(from),
      (log) => log.includes(`[revalidate] uid=api::article.article paths=/en/blog/${fresh.slug},/blog/${fresh.slug} `),
    );
    // A first publish (docs/cms-contract.md, "What a write sends"): its document (C2), the lists of
    // articles in en and in every locale, and those of its author (C3: it has no category), and its
    // neighbour's previous/next links in the listing's order, the article that was newest (C4: it has
    // no newer one).
    const A = "cms:api::article.article";
    expect(revalidations(site.app.output().slice(from))).toMatchObject([
      {
        uid: "api::article.article",
        paths: [`/en/blog/${fresh.slug}`, `/blog/${fresh.slug}`],
        tags: [
          `${A}:${fresh.documentId}`,
          `${A}:list:en`,
          `${A}:list:*`,
          `${A}:list:en:author=${authorId}`,
          `${A}:list:*:author=${authorId}`,
          `${A}:neighbours:en:${newest}`,
        ],
        expire: false,
      },
    ]);
    const stale = await get("/blog");
    expect(stale.cache).toBe("STALE");
    const listed = await until(
      "/blog to list the new article first",
      () => get("/blog"),
      (answer) => cardTitles(answer.text)[0] === `Fresh news ${run}`,
    );
    expect(listed.status).toBe(200);

    // Its page, cached, then edited and republished: STALE once, then the new title.
    await until(
      "the article's page to be cached",
      () => get(`/blog/${fresh.slug}`),
      (answer) => answer.status === 200 && answer.cache === "HIT",
    );
    from = site.app.output().length;
    await admin.call("PUT", `${ARTICLES}/${fresh.documentId}?locale=en`, { title: `Fresh news, edited ${run}` });
    expect(await get(`/blog/${fresh.slug}`)).toMatchObject({ cache: "HIT" });
    await admin.call("POST", `${ARTICLES}/${fresh.documentId}/actions/publish?locale=en`, {});
    await until(
      "the site to log the edit's revalidation",
      () => site.app.output().slice(from),
      (log) => log.includes(`uid=api::article.article paths=/en/blog/${fresh.slug},/blog/${fresh.slug} `),
    );
    await until(
      "the article's page to show the edit",
      () => get(`/blog/${fresh.slug}`),
      (answer) => answer.text.includes(`<h1>Fresh news, edited ${run}</h1>`),
    );

    // Unpublish: a takedown. The admin's answer waits for the site's; the next request is the 404.
    await until(
      "the article's page to be cached again",
      () => get(`/blog/${fresh.slug}`),
      (answer) => answer.cache === "HIT",
    );
    await until(
      "/blog to be cached again",
      () => get("/blog"),
      (answer) => answer.cache === "HIT",
    );
    await admin.call("POST", `${ARTICLES}/${fresh.documentId}/actions/unpublish?locale=en`, {});
    expect(await get(`/blog/${fresh.slug}`)).toMatchObject({ status: 404, cache: "MISS" });
    const after = await get("/blog");
    expect(after.cache).toBe("MISS");
    expect(after.text).not.toContain(`Fresh news`);
    expect((await get("/blog/rss.xml")).text).not.toContain("Fresh news");
  }, 60_000);
});
