import { describe, expect, it } from "vitest";

import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Issue 32, point 2: the site's search (docs/search.md) through the shared real Strapi (its
// default database, SQLite: the FTS5 index of the site-search plugin) and the production site.
// The content this file writes carries a word of its own (`run`), so the other files sharing the
// CMS neither see it nor add to its counts. The PostgreSQL index: cms-cluster-postgres.test.ts.
// Its polls search many times a minute from one address: the budget is tested in site-search-limits.test.ts.
const site = strapiSite("site-search", { sharedCms: true, appEnv: { SEARCH_RATE_LIMIT_MAX: "100000" } });
const run = `srch${Date.now().toString(36)}`;
const ARTICLES = "/content-manager/collection-types/api::article.article";
/** How long a write may take to show in the search: the editor's answer, the index written after its commit. */
const PUBLISH_TO_FOUND_MS = 5_000;

const search = (path: string) => getPage(site.app.url, path);
const q = (words: string, extra = "") => `/search?q=${encodeURIComponent(words)}${extra}`;
/** The results' titles, marks kept as `[word]`. */
const titles = (html: string) =>
  [...html.matchAll(/<h2><a href="([^"]*)">([\s\S]*?)<\/a><\/h2>/g)].map(([, href, title]) => ({
    href,
    title: title!.replace(/<mark>([^<]*)<\/mark>/g, "[$1]"),
  }));

async function publishArticle(admin: StrapiAdmin, data: Record<string, unknown>, locale = "en") {
  const created = (await admin.call("POST", `${ARTICLES}?locale=${locale}`, data)) as { data: { documentId: string } };
  const id = created.data.documentId;
  await admin.call("POST", `${ARTICLES}/${id}/actions/publish?locale=${locale}`, {});
  return id;
}

describe("the seeded site is searchable in both locales", () => {
  it("/search finds the English article and page, words marked, linked at their addresses", async () => {
    const page = await search(q("berlin office"));
    expect(page.status).toBe(200);
    expect(titles(page.text)).toContainEqual({
      href: "/blog/berlin-office",
      title: "Acme opens its [Berlin] [office]",
    });
    expect(page.text).toMatch(/1 result for “berlin office”|\d+ results for “berlin office”/);
    // A page: its title, SEO description and sections' text are indexed.
    const company = await search(q("remote-first forty"));
    expect(titles(company.text)).toContainEqual({ href: "/company", title: "Company" });
    expect(company.text).toMatch(/<mark>remote<\/mark>-<mark>first<\/mark>/i);
  });

  it("/de/search finds the German article, not the English one, and speaks German", async () => {
    const page = await search(`/de${q("kaffeemaschine")}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="de"');
    expect(titles(page.text)).toEqual([{ href: "/de/blog/buero-berlin", title: "Acme eröffnet ein Büro in Berlin" }]);
    expect(page.text).toContain("<mark>Kaffeemaschine</mark>");
    expect(page.text).toContain("1 Ergebnis für „kaffeemaschine“");
    expect(titles((await search(`/de${q("berlin office")}`)).text)).toEqual([]);
  });

  it("a page is found by the text of its sections, in each locale", async () => {
    // The home page's hero section: "… the tools small teams need, without the ceremony."
    expect(titles((await search(q("ceremony"))).text)).toContainEqual({ href: "/", title: "Welcome to Acme" });
    // Its German hero's heading.
    expect(titles((await search(`/de${q("zuversicht")}`)).text).map(({ href }) => href)).toContain("/de");
  });

  it("an article is found by its category's and author's names", async () => {
    const page = await search(q("ada brenner"));
    expect(titles(page.text).length).toBeGreaterThan(0);
    expect(titles(page.text).every(({ href }) => href!.startsWith("/blog/"))).toBe(true);
  });
});

describe("the index follows the editors' writes", () => {
  it("a publish is found, an edit is found as edited, an unpublish and a delete are gone", async () => {
    const admin = await StrapiAdmin.login(site.cms.url);
    const id = await publishArticle(admin, {
      title: `Quarterly ${run} report`,
      slug: `report-${run}`,
      excerpt: "Numbers and lighthouses.",
    });
    const found = await until(
      "the published article to be found",
      () => search(q(run)),
      (page) => titles(page.text).length === 1,
      { timeoutMs: PUBLISH_TO_FOUND_MS },
    );
    expect(titles(found.text)).toEqual([{ href: `/blog/report-${run}`, title: `Quarterly [${run}] report` }]);

    // An edit, published: the new words are found, the old ones are not.
    await admin.call("PUT", `${ARTICLES}/${id}?locale=en`, { title: `Yearly ${run} summary` });
    await admin.call("POST", `${ARTICLES}/${id}/actions/publish?locale=en`, {});
    const edited = await until(
      "the edited title",
      () => search(q(`${run} yearly`)),
      (page) => titles(page.text).length === 1,
      { timeoutMs: PUBLISH_TO_FOUND_MS },
    );
    expect(titles(edited.text)[0]!.title).toBe(`[Yearly] [${run}] summary`);
    expect(titles((await search(q(`${run} quarterly`))).text)).toEqual([]);

    // A draft's words are not found until published.
    await admin.call("PUT", `${ARTICLES}/${id}?locale=en`, { title: `Draft ${run} zebra` });
    expect(titles((await search(q(`${run} zebra`))).text)).toEqual([]);

    await admin.call("POST", `${ARTICLES}/${id}/actions/unpublish?locale=en`, {});
    await until(
      "the unpublished article to be gone",
      () => search(q(run)),
      (page) => titles(page.text).length === 0,
      { timeoutMs: PUBLISH_TO_FOUND_MS },
    );

    const other = await publishArticle(admin, { title: `Deleted ${run} story`, slug: `deleted-${run}` });
    await until(
      "the second article",
      () => search(q(`${run} deleted`)),
      (p) => titles(p.text).length === 1,
      {
        timeoutMs: PUBLISH_TO_FOUND_MS,
      },
    );
    await admin.call("DELETE", `${ARTICLES}/${other}?locale=en`);
    await until(
      "the deleted article to be gone",
      () => search(q(`${run} deleted`)),
      (p) => titles(p.text).length === 0,
      {
        timeoutMs: PUBLISH_TO_FOUND_MS,
      },
    );
  });

  it("renaming a category reindexes its articles: found by the new name, not the old", async () => {
    const admin = await StrapiAdmin.login(site.cms.url);
    const CATEGORIES = "/content-manager/collection-types/api::category.category";
    const category = (await admin.call("POST", `${CATEGORIES}?locale=en`, {
      name: `Topic ${run}a`,
      slug: `topic-${run}`,
    })) as {
      data: { documentId: string };
    };
    await publishArticle(admin, {
      title: "Filed under a topic",
      slug: `filed-${run}`,
      category: { connect: [{ documentId: category.data.documentId, locale: "en" }] },
    });
    await until(
      "the article by its category",
      () => search(q(`${run}a`)),
      (p) => titles(p.text).length === 1,
      {
        timeoutMs: PUBLISH_TO_FOUND_MS,
      },
    );
    await admin.call("PUT", `${CATEGORIES}/${category.data.documentId}?locale=en`, { name: `Subject ${run}b` });
    const renamed = await until(
      "the article by the new name",
      () => search(q(`${run}b`)),
      (p) => titles(p.text).length === 1,
      {
        timeoutMs: PUBLISH_TO_FOUND_MS,
      },
    );
    expect(titles(renamed.text)).toEqual([{ href: `/blog/filed-${run}`, title: "Filed under a topic" }]);
    expect(titles((await search(q(`${run}a`))).text)).toEqual([]);
  });

  it("results come ten a page, ranked title first, with links to the other pages", async () => {
    const admin = await StrapiAdmin.login(site.cms.url);
    const word = `${run}pg`;
    // Eleven articles with the word in their excerpt, one with it in its title: ranked first.
    for (let i = 0; i < 11; i++)
      await publishArticle(admin, { title: `Note ${i}`, slug: `${word}-${i}`, excerpt: `On ${word}.` });
    await publishArticle(admin, { title: `All about ${word}`, slug: `${word}-title` });
    const first = await until(
      "twelve results",
      () => search(q(word)),
      (p) => p.text.includes("12 results"),
      {
        timeoutMs: PUBLISH_TO_FOUND_MS,
      },
    );
    expect(titles(first.text)).toHaveLength(10);
    expect(titles(first.text)[0]).toEqual({ href: `/blog/${word}-title`, title: `All about [${word}]` });
    expect(first.text).toContain(`href="/search?q=${word}&amp;page=2" rel="next"`);
    const second = await search(q(word, "&page=2"));
    expect(titles(second.text)).toHaveLength(2);
    expect(second.text).toContain(`href="/search?q=${word}" rel="prev"`);
    // Past the last page: says so, links back to the first.
    const past = await search(q(word, "&page=3"));
    expect(past.status).toBe(200);
    expect(past.text).toContain("There are fewer results than this page.");
  });
});

describe("a stranger's query", () => {
  it("is never stored: no-store everywhere, no page-cache answer", async () => {
    const page = await search(q("berlin"));
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.headers.get("cdn-cache-control")).toBe("no-store");
    expect(page.cache).toBeNull();
    expect(page.text).toContain('<meta name="robots" content="noindex"/>');
  });

  it("an empty, wordless, too long or out-of-range query gets a clear page", async () => {
    const empty = await search("/search");
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("Type one or more words to search");
    const wordless = await search(q('"*" -- () ^ ~ …'));
    expect(wordless.status).toBe(200);
    expect(wordless.text).toContain("Your search has no words to look for.");
    const long = await search(q("a".repeat(201)));
    expect(long.status).toBe(400);
    expect(long.text).toContain("Your search is too long: type at most 200 characters.");
    for (const bad of ["abc", "0", "51", "1e3", "-1"]) {
      const page = await search(q("berlin", `&page=${bad}`));
      expect(page.status, bad).toBe(400);
      expect(page.text).toContain("There is no such page of results");
    }
    expect((await search("/xx/search?q=berlin")).status).toBe(404);
  });

  it("FTS5 syntax in a query is searched as words, never as syntax", async () => {
    for (const input of ['berlin" OR "x', "berlin AND title:office*", "NEAR(berlin office)", "berlin)"]) {
      const page = await search(q(input));
      expect(page.status, input).toBe(200);
      expect(page.text, input).not.toContain("There was a problem");
    }
    // `berlin" OR "x` is the three words berlin, or, x: all required, so nothing (no article says "x").
    expect(titles((await search(q('berlin" OR "zzzz'))).text)).toEqual([]);
  });

  it("the CMS's route answers the site's token only, and refuses bad input with 400", async () => {
    const url = (query: string) => `${site.cms.url}/api/site-search?${query}`;
    const auth = { authorization: `Bearer ${site.cms.token}` };
    expect((await fetch(url("q=berlin&locale=en"))).status).toBe(403);
    const ok = await fetch(url("q=berlin&locale=en"), { headers: auth });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { data: unknown[]; meta: { terms: string[] } };
    expect(body.meta.terms).toEqual(["berlin"]);
    for (const bad of [
      "q=berlin&locale=xx",
      "q=berlin",
      `q=${"a".repeat(201)}&locale=en`,
      "q=a&locale=en&page=51",
      "q[$x]=1&locale=en",
    ]) {
      const answer = await fetch(url(bad), { headers: auth });
      expect(answer.status, bad).toBe(400);
    }
  });
});

describe("the header's search field", () => {
  it("is a labelled search landmark on every page, posting to the locale's search page", async () => {
    for (const [path, action, label] of [
      ["/", "/search", "Search the site"],
      ["/de/company", "/de/search", "Website durchsuchen"],
      ["/blog", "/search", "Search the site"],
    ] as const) {
      const page = await search(path);
      expect(page.status, path).toBe(200);
      const form = /<form role="search" class="site-search" action="([^"]*)" method="get">([\s\S]*?)<\/form>/.exec(
        page.text,
      );
      expect(form?.[1], path).toBe(action);
      expect(form?.[2]).toContain(`<label for="site-search-q" class="visually-hidden">${label}</label>`);
      expect(form?.[2]).toMatch(/<input id="site-search-q" type="search"[^>]* name="q"/);
    }
  });
});
