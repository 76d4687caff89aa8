import { describe, expect, it } from "vitest";

import { adjacentArticles, articleSchema, articleSummarySchema, findArticle, listArticles } from "./articles.server.ts";
import { recordedTags, type CmsClient, type CmsFetchOptions } from "./client.server.ts";
import { sectionsSchema } from "./sections.server.ts";
import { contentTypeSections, loadContentTypeSections } from "../../content-types/modules.server.ts";

const summary = {
  documentId: "doc1",
  locale: "en",
  title: "Acme 3.0 is out",
  slug: "acme-3",
  excerpt: "  ",
  publishDate: "2026-10-20T09:00:00.000Z",
  publishedAt: "2026-11-27T05:00:00.000Z",
  cover: null,
  category: { documentId: "cat-news", name: "Company news", slug: "news" },
  author: { name: "Jonas Weber", role: null },
};

/**
 * A CMS client that answers with `answer(path, options)` and keeps each call with the tags the
 * real client records from its options and that answer (client.server.ts, recordedTags).
 */
function recordingCms(answer: (path: string, options: CmsFetchOptions) => unknown) {
  const calls: Array<{ path: string; options: CmsFetchOptions; tags: string[] }> = [];
  const cms: CmsClient = {
    async get(path, schema, options) {
      const body = answer(path, options);
      calls.push({ path, options, tags: recordedTags(options, body) });
      return schema.parse(body);
    },
  };
  return { cms, calls };
}

describe("article schemas", () => {
  it("shows publishDate (which a republish does not move), never publishedAt, when there is one", () => {
    const parsed = articleSummarySchema.parse(summary);
    expect(parsed.date).toBe("2026-10-20T09:00:00.000Z");
    expect(parsed.excerpt).toBeNull();
    // An article from before publishDate existed: its publishedAt stands in.
    expect(articleSummarySchema.parse({ ...summary, publishDate: null }).date).toBe("2026-11-27T05:00:00.000Z");
  });

  it("takes missing relations, cover and body as none, and refuses an article without a slug", () => {
    const parsed = articleSchema.parse({ ...summary, category: undefined, author: null, body: null });
    expect(parsed).toMatchObject({ category: null, author: null, cover: null, body: [] });
    expect(articleSchema.safeParse({ ...summary, slug: undefined, body: [] }).success).toBe(false);
    expect(articleSchema.safeParse({ ...summary, body: [{ text: "no type" }] }).success).toBe(false);
  });
});

describe("article queries", () => {
  const list = (data: unknown[], pageCount = 1) => ({
    data,
    meta: { pagination: { page: 1, pageSize: 10, pageCount, total: data.length } },
  });

  it("lists newest first, 10 a page, recording the list and its articles; a category's by its documentId", async () => {
    const { cms, calls } = recordingCms(() => list([summary], 3));
    const page = await listArticles(cms, { locale: "de", page: 2, categoryId: "cat-news" });
    expect(page).toMatchObject({ page: 2, pageCount: 3, total: 1 });
    const { path, options, tags } = calls[0]!;
    expect(path).toBe("/api/articles");
    expect(options.query).toMatchObject({
      locale: "de",
      sort: ["publishDate:desc", "slug:asc"],
      pagination: { page: 2, pageSize: 10 },
      filters: { category: { documentId: { $eq: "cat-news" } } },
    });
    expect(options.omitUserAuthorization).toBe(true);
    // The populated category and author are not recorded: the CMS revalidates their articles.
    // The sort's fields are (C7), though the CMS sends the list tag whenever they change.
    expect(tags).toEqual([
      "cms:api::article.article",
      "cms:api::article.article:doc1",
      "cms:api::article.article:list:de:category=cat-news",
      "cms:api::article.article:field:de:publishDate",
      "cms:api::article.article:field:de:slug",
    ]);

    await listArticles(cms, { locale: "en", page: 1 });
    expect(calls[1]!.options.query).not.toHaveProperty("filters");
    expect(calls[1]!.tags).toEqual([
      "cms:api::article.article",
      "cms:api::article.article:doc1",
      "cms:api::article.article:list:en",
      "cms:api::article.article:field:en:publishDate",
      "cms:api::article.article:field:en:slug",
    ]);
  });

  it("reads an article by slug, reached by its path: records the article, no list", async () => {
    const { cms, calls } = recordingCms(() => ({ data: [{ ...summary, body: [] }] }));
    expect(await findArticle(cms, "acme-3", "de")).toMatchObject({ slug: "acme-3" });
    expect(calls[0]!.options).toMatchObject({ pagePath: "/de/blog/acme-3" });
    expect(calls[0]!.options.query).toMatchObject({ filters: { slug: { $eq: "acme-3" } }, locale: "de" });
    expect(calls[0]!.tags).toEqual(["cms:api::article.article", "cms:api::article.article:doc1"]);
  });

  it("previous is the next older article, next the next newer one: each records the article it found and the neighbours tag, no list", async () => {
    const { cms, calls } = recordingCms((_path, options) => {
      const sort = (options.query as { sort: string[] }).sort[0];
      return {
        data: sort === "publishDate:desc" ? [{ documentId: "doc0", title: "Older", slug: "older", locale: "en" }] : [],
      };
    });
    const article = { documentId: "doc3", slug: "acme-3", locale: "en", publishDate: summary.publishDate };
    expect(await adjacentArticles(cms, article)).toEqual({
      previous: { title: "Older", slug: "older" },
      next: null,
    });
    expect(calls.map((call) => call.options.dependsOn)).toEqual([{ neighboursOf: "doc3" }, { neighboursOf: "doc3" }]);
    // No list; at the newer end (no article found) the neighbours tag alone brings a new newest one.
    expect(calls.map((call) => call.tags)).toEqual([
      ["cms:api::article.article", "cms:api::article.article:doc0", "cms:api::article.article:neighbours:en:doc3"],
      ["cms:api::article.article", "cms:api::article.article:neighbours:en:doc3"],
    ]);
    expect(calls[0]!.options.query).toMatchObject({
      filters: { $or: [{ publishDate: { $lt: summary.publishDate } }, expect.anything()] },
    });
  });

  it("loads the articles of each latest-articles section (the blog's, app/content-types/blog/), by its index, with its count and category", async () => {
    const { cms, calls } = recordingCms(() => list([summary]));
    const typed = contentTypeSections(
      sectionsSchema.parse([
        { __component: "sections.hero", heading: "Hi" },
        { __component: "sections.latest-articles", count: 2, category: null },
        {
          __component: "sections.latest-articles",
          count: 5,
          category: { documentId: "cat-news", slug: "news", name: "News" },
        },
      ]),
    );
    const latest = await loadContentTypeSections(cms, typed, "en");
    expect([...latest.keys()]).toEqual([1, 2]);
    expect(calls.map((call) => call.options.query)).toMatchObject([
      { pagination: { page: 1, pageSize: 2 } },
      { pagination: { page: 1, pageSize: 5 }, filters: { category: { documentId: { $eq: "cat-news" } } } },
    ]);
    expect(calls.map((call) => call.tags.filter((tag) => tag.includes(":list:")))).toEqual([
      ["cms:api::article.article:list:en"],
      ["cms:api::article.article:list:en:category=cat-news"],
    ]);
    expect(await loadContentTypeSections(cms, contentTypeSections([{ __component: "sections.faq" }]), "en")).toEqual(
      new Map(),
    );
  });
});
