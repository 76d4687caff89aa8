import { beforeAll, describe, expect, it } from "vitest";

import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Issue 23's acceptance test, through the real Strapi and the production site (page cache on):
// "Publishing, editing or unpublishing an article then revalidates exactly: the listing pages, the
// article's page, the category page, every page whose sections list latest articles, the feed and
// the sitemap; renaming an author revalidates that author's articles. Nothing else."
//
// Every page of the seeded site is cached (HIT); an editor's write goes through the admin API; once
// the site has logged the CMS's revalidation, every cached page is asked for once: the pages the
// write changes must come back re-rendered (STALE: served once more while re-rendered; after a
// takedown MISS: rendered anew at once), every other page HIT. Between writes every page is cached
// again.
//
// What each page shows is read from the CMS (its REST API, the site's token) before each write,
// never hard-coded: a listing page, a category page, a latest-articles section and the feed show
// their list (in their locale); an article's page shows the article and, in its previous/next
// links, its two neighbours in the listing's order; the sitemap every published article. The
// document tag the CMS sends covers every locale of the document (docs/cms-contract.md, "Tags"); a
// first publish or an unpublish also sends the neighbours tags of the articles next to it (C4),
// which only those articles' previous/next links in that locale record: their pages, nothing else.

const secrets = { CMS_REVALIDATE_SECRET: "exact-revalidate-secret-0123456789" };
const site = strapiSite("revalidation-exact", { cmsEnv: () => secrets, appEnv: secrets });

const ARTICLES = "/content-manager/collection-types/api::article.article";
const AUTHORS = "/content-manager/collection-types/api::author.author";
const ARTICLE_UID = "api::article.article";
const PER_PAGE = 10; // the listing's page size (app/lib/cms/articles.server.ts)
const FEED_ITEMS = 20; // the feed's length (app/routes/blog.rss.ts)
const run = Date.now().toString(36);

let admin: StrapiAdmin;

interface Ref {
  documentId: string;
}
interface ArticleRow extends Ref {
  locale: string;
  slug: string;
  category: Ref | null;
  author: (Ref & { name: string }) | null;
}
interface CategoryRow extends Ref {
  locale: string;
  slug: string;
}
interface LatestSection {
  count: number;
  category: Ref | null;
}
interface PageRow extends Ref {
  locale: string;
  fullPath: string;
  sections?: Array<{ __component: string } & Partial<LatestSection>>;
}

/** A GET of the CMS's REST API with the site's read-only token: every entry (one page of 100 is enough here). */
async function restJson(path: string, query: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(`${site.cms.url}${path}?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${site.cms.token}` },
  });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function rest<T>(path: string, query: Record<string, string>): Promise<T[]> {
  const { data, meta } = (await restJson(path, { ...query, "pagination[pageSize]": "100" })) as {
    data: T[];
    meta?: { pagination?: { total: number } };
  };
  expect(data.length, `${path}: more than one page of answers`).toBe(meta?.pagination?.total ?? data.length);
  return data;
}

/**
 * The published site as the CMS has it, and what each of its pages shows (see the head of this
 * file). `pages`: every page to cache and check, by path, each with the documents it shows and the
 * lists it shows (`<locale>` every article of the locale; `<locale>:<categoryId>` a category's).
 */
interface SiteModel {
  defaultLocale: string;
  /** Published articles per locale, in the listing's order (newest first). */
  order: Map<string, ArticleRow[]>;
  pages: Map<string, { shows: Set<string>; lists: Set<string> }>;
}

const at = (model: Pick<SiteModel, "defaultLocale">, locale: string, path: string) =>
  locale === model.defaultLocale ? path : `/${locale}${path === "/" ? "" : path}`;

async function readSite(): Promise<SiteModel> {
  const locales = (await restJson("/api/i18n/locales")) as Array<{ code: string; isDefault: boolean }>;
  const defaultLocale = locales.find((locale) => locale.isDefault)!.code;
  const model: SiteModel = { defaultLocale, order: new Map(), pages: new Map() };
  const page = (path: string, shows: Iterable<ArticleRow> = [], lists: string[] = []) => {
    const entry = model.pages.get(path) ?? { shows: new Set<string>(), lists: new Set<string>() };
    for (const article of shows) entry.shows.add(article.documentId);
    for (const list of lists) entry.lists.add(list);
    model.pages.set(path, entry);
  };
  /** Pages 1…n of a listing of `articles` (page 1 even when empty). */
  const listing = (path: string, articles: ArticleRow[], list: string) => {
    for (let n = 1; n === 1 || (n - 1) * PER_PAGE < articles.length; n++) {
      page(n === 1 ? path : `${path}?page=${n}`, articles.slice((n - 1) * PER_PAGE, n * PER_PAGE), [list]);
    }
  };

  for (const { code: locale } of locales) {
    const articles = await rest<ArticleRow>("/api/articles", {
      locale,
      "fields[0]": "slug",
      "fields[1]": "locale",
      "sort[0]": "publishDate:desc",
      "sort[1]": "slug:asc",
      "populate[category][fields][0]": "slug",
      "populate[author][fields][0]": "name",
    });
    model.order.set(locale, articles);
    listing(at(model, locale, "/blog"), articles, locale);
    page(at(model, locale, "/blog/rss.xml"), articles.slice(0, FEED_ITEMS), [locale]);
    articles.forEach((article, i) => {
      const neighbours = [articles[i - 1], articles[i + 1]].filter((a): a is ArticleRow => Boolean(a));
      page(at(model, locale, `/blog/${article.slug}`), [article, ...neighbours]);
    });
  }
  const all = [...model.order.values()].flat();
  page("/sitemap.xml", all, [...model.order.keys()]);

  for (const category of await rest<CategoryRow>("/api/categories", {
    locale: "*",
    "fields[0]": "slug",
    "fields[1]": "locale",
  })) {
    const articles = model.order.get(category.locale)!.filter((a) => a.category?.documentId === category.documentId);
    listing(
      at(model, category.locale, `/blog/category/${category.slug}`),
      articles,
      `${category.locale}:${category.documentId}`,
    );
  }

  const pages = await rest<PageRow>("/api/pages", {
    locale: "*",
    "fields[0]": "fullPath",
    "fields[1]": "locale",
    "populate[sections][on][sections.latest-articles][populate][category][fields][0]": "slug",
  });
  for (const { locale, fullPath, sections = [] } of pages) {
    const path = at(model, locale, fullPath);
    page(path);
    for (const section of sections) {
      if (section.__component !== "sections.latest-articles") continue;
      const category = section.category?.documentId;
      const articles = model.order.get(locale)!.filter((a) => !category || a.category?.documentId === category);
      page(path, articles.slice(0, section.count), [category ? `${locale}:${category}` : locale]);
    }
  }
  return model;
}

/** The pages that show a document (in any locale: its tag covers them all). */
const showing = (model: SiteModel, documentId: string) =>
  [...model.pages].filter(([, page]) => page.shows.has(documentId)).map(([path]) => path);

/** The pages that show the list of `locale`'s articles, or that of one of `categories` in it. */
const listing = (model: SiteModel, locale: string, categories: string[]) => {
  const lists = new Set([locale, ...categories.map((id) => `${locale}:${id}`)]);
  return [...model.pages].filter(([, page]) => [...page.lists].some((l) => lists.has(l))).map(([path]) => path);
};

/** The pages of the neighbours of an article in its locale's listing order (the newer one, the older one). */
function neighbourPages(model: SiteModel, locale: string, documentId: string) {
  const order = model.order.get(locale)!;
  const i = order.findIndex((article) => article.documentId === documentId);
  return [order[i - 1], order[i + 1]]
    .filter((a): a is ArticleRow => Boolean(a))
    .map((a) => at(model, locale, `/blog/${a.slug}`));
}

const get = (path: string) => getPage(site.app.url, path);

/** Every page of the model cached: asked for until it is a HIT. */
async function warm(model: SiteModel) {
  for (const path of model.pages.keys()) {
    await until(
      `${path} to be cached`,
      () => get(path),
      (answer) => answer.status === 200 && answer.cache === "HIT",
    );
  }
}

/** The site's `[revalidate]` log lines (its `event: "revalidation"` records) in a stretch of its output. */
const revalidations = (log: string) =>
  log
    .split("\n")
    .filter((line) => line.includes('"event":"revalidation"'))
    .map((line) => JSON.parse(line) as { uid: string; paths?: string[]; tags?: string[]; expire: boolean });

/**
 * Runs `write` (an editor's write) with every page of `model` cached, waits until the site has
 * logged the CMS's revalidation of `uid`, then asks for every page once: those in `changed` must
 * come back re-rendered (`rerendered`: STALE, or MISS after a takedown), every other one HIT. Fails
 * naming every page that was wrong.
 */
async function expectExactly(
  model: SiteModel,
  uid: string,
  write: () => Promise<void>,
  changed: Iterable<string>,
  { rerendered = "STALE", gone = [] as string[] } = {},
) {
  const expected = new Set(changed);
  for (const path of expected) expect(model.pages.has(path), `${path} is not a page of the site`).toBe(true);
  await warm(model);
  const from = site.app.output().length;
  await write();
  const sent = await until(
    `the site to log the CMS's revalidation of ${uid}`,
    () => revalidations(site.app.output().slice(from)),
    (events) => events.some((event) => event.uid === uid),
  );
  const wrong: string[] = [];
  for (const path of model.pages.keys()) {
    const answer = await get(path);
    const want = expected.has(path) ? rerendered : "HIT";
    const status = gone.includes(path) ? 404 : 200;
    if (answer.cache !== want || answer.status !== status) {
      wrong.push(`${path}: expected ${status} ${want}, got ${answer.status} ${answer.cache}`);
    }
  }
  expect(wrong, `sent: ${JSON.stringify(sent)}`).toEqual([]);
  // One POST per write: nothing else reached the site.
  expect(revalidations(site.app.output().slice(from))).toHaveLength(1);
  return sent[0]!;
}

const union = (...groups: string[][]) => [...new Set(groups.flat())];

/** The previous/next links of an article's page (its `article-adjacent` nav), or "" when it has none. */
const adjacentLinks = (html: string) => /<nav class="article-adjacent".*?<\/nav>/s.exec(html)?.[0] ?? "";

/** A page once it has been rendered anew after a write (asked for until it is a HIT again). */
const renderedAnew = (path: string) =>
  until(
    `${path} to be rendered anew`,
    () => get(path),
    (answer) => answer.cache === "HIT",
  );

describe("a write revalidates exactly the pages that show what it changed (issue 23)", () => {
  /** Category A, author X, the new article N. */
  let category: string;
  let author: Ref & { name: string };
  let fresh: { documentId: string; slug: string };
  /** The page of the article that was the newest before N (N's neighbour). */
  let neighbourPage: string;

  beforeAll(async () => {
    admin = await StrapiAdmin.login(site.cms.url);
    const seeded = await readSite();
    const en = seeded.order.get(seeded.defaultLocale)!;
    // A: a category the newest article is not in, so that the newest article's category pages
    // and category A's are told apart; X: the author of A's newest article.
    const inA = en.find((article) => article.category && article.category.documentId !== en[0]!.category?.documentId);
    expect(inA?.author, "the seed has an article with an author in a second category").toBeTruthy();
    category = inA!.category!.documentId;
    author = inA!.author!;
  }, 60_000);

  it("(a) the first publish of a new article in category A by author X", async () => {
    const model = await readSite();
    const locale = model.defaultLocale;
    // It is the newest (its publish date is set on publish): the newest so far becomes its neighbour.
    const [neighbour] = model.order.get(locale)!;
    fresh = { documentId: "", slug: `exact-${run}` };
    await expectExactly(
      model,
      ARTICLE_UID,
      async () => {
        const { data } = (await admin.call("POST", `${ARTICLES}?locale=${locale}`, {
          title: `Exactly revalidated ${run}`,
          slug: fresh.slug,
          excerpt: "What a publish revalidates.",
          body: [{ type: "paragraph", children: [{ type: "text", text: "Nothing else." }] }],
          author: { connect: [{ documentId: author.documentId }] },
          category: { connect: [{ documentId: category, locale }] },
        })) as { data: { documentId: string } };
        fresh.documentId = data.documentId;
        await admin.call("POST", `${ARTICLES}/${data.documentId}/actions/publish?locale=${locale}`, {});
      },
      union(
        // The listing pages, the feed and the sitemap of its locale, category A's page, and every
        // page whose latest-articles section lists its locale's (or category A's) newest articles:
        listing(model, locale, [category]),
        // and its neighbour's page in its locale, whose "next" link is now the new article:
        [at(model, locale, `/blog/${neighbour!.slug}`)],
      ),
    );
    // Rendered anew, the neighbour's page links to the new article ("next": the newer one).
    neighbourPage = at(model, locale, `/blog/${neighbour!.slug}`);
    expect(
      adjacentLinks((await renderedAnew(neighbourPage)).text),
      `${neighbourPage} links to the new article`,
    ).toContain(`rel="next" href="/blog/${fresh.slug}"`);
  }, 120_000);

  it("(b) a title edit and republish of that article", async () => {
    const model = await readSite();
    expect(model.pages.has(`/blog/${fresh.slug}`)).toBe(true);
    await expectExactly(
      model,
      ARTICLE_UID,
      async () => {
        const base = `${ARTICLES}/${fresh.documentId}`;
        await admin.call("PUT", `${base}?locale=${model.defaultLocale}`, { title: `Exactly, edited ${run}` });
        await admin.call("POST", `${base}/actions/publish?locale=${model.defaultLocale}`, {});
      },
      // Its place and its lists do not change: the pages that show it (its page, the listing, the
      // category page, the latest-articles sections, the feed, the sitemap, its neighbour's page).
      showing(model, fresh.documentId),
    );
    expect(adjacentLinks((await renderedAnew(neighbourPage)).text), `${neighbourPage} shows the new title`).toContain(
      `Exactly, edited ${run}`,
    );
  }, 120_000);

  it("(c) its unpublish (a takedown: expired, rendered anew at once)", async () => {
    const model = await readSite();
    const locale = model.defaultLocale;
    const neighbours = neighbourPages(model, locale, fresh.documentId);
    const page = `/blog/${fresh.slug}`;
    await expectExactly(
      model,
      ARTICLE_UID,
      () =>
        admin
          .call("POST", `${ARTICLES}/${fresh.documentId}/actions/unpublish?locale=${locale}`, {})
          .then(() => undefined),
      union(listing(model, locale, [category]), showing(model, fresh.documentId), neighbours),
      { rerendered: "MISS", gone: [page] },
    );
    expect(
      adjacentLinks((await renderedAnew(neighbourPage)).text),
      `${neighbourPage} no longer links to it`,
    ).not.toContain(`/blog/${fresh.slug}"`);
  }, 120_000);

  it("(d) renaming author X", async () => {
    const model = await readSite();
    const theirs = [
      ...new Set(
        [...model.order.values()]
          .flat()
          .filter((a) => a.author?.documentId === author.documentId)
          .map((a) => a.documentId),
      ),
    ];
    expect(theirs.length, "author X has published articles").toBeGreaterThan(0);
    const name = `${author.name} (renamed ${run})`;
    await expectExactly(
      model,
      "api::author.author",
      () => admin.call("PUT", `${AUTHORS}/${author.documentId}`, { name }).then(() => undefined),
      // Their articles, in every locale: every page that shows one of them.
      union(...theirs.map((id) => showing(model, id))),
    );
    const one = model.order.get(model.defaultLocale)!.find((a) => a.author?.documentId === author.documentId)!;
    const page = at(model, model.defaultLocale, `/blog/${one.slug}`);
    expect((await renderedAnew(page)).text, `${page} shows the new name`).toContain(
      `<span class="article-author">${name}</span>`,
    );
  }, 120_000);

  it("(e) a navbar edit: every HTML page, not the feeds nor the sitemap", async () => {
    const model = await readSite();
    const locale = model.defaultLocale;
    await expectExactly(
      model,
      "api::navbar.navbar",
      () =>
        admin
          .setLinks("api::navbar.navbar", locale, [
            { label: "Home", url: "/" },
            { label: "Blog", url: "/blog" },
          ])
          .then(() => undefined),
      [...model.pages.keys()].filter((path) => !path.endsWith(".xml")),
    );
    const home = (await renderedAnew(at(model, locale, "/"))).text;
    expect(/<nav aria-label="Main" class="main-nav">.*?<\/nav>/.exec(home)?.[0]).toContain('href="/blog"');
  }, 120_000);
});
