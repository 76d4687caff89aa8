import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GroongaServer } from "../support/groonga-server.ts";
import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Issue 32, the search engine a site that outgrows the embedded index turns on (docs/search.md,
// "Groonga"; decision 0038): a real Groonga HTTP server on a free port, a Strapi configured with
// SEARCH_ENGINE=groonga, and the production site. Its own Strapi, not the shared one: the engine is
// the CMS's configuration, read at start, and the shared CMS keeps its index in SQLite for the
// other files. The index is built at the CMS's start from the seed (Groonga starts empty).
const groongaPort = await getPort();
let groonga: GroongaServer;
/** How often the plugin retries the index writes Groonga did not take (30 s by default). */
const RETRY_MS = 500;
const GROONGA_TIMEOUT_MS = 2_000;
const PUBLISH_TO_FOUND_MS = 5_000;

// Registered before strapiSite's own beforeAll: Groonga answers before the CMS starts.
beforeAll(async () => {
  groonga = new GroongaServer(groongaPort, path.join(site.dir, "groonga"));
  await groonga.start();
});
afterAll(async () => {
  await groonga?.stop();
});

const site = strapiSite("site-search-groonga", {
  cmsEnv: () => ({
    SEARCH_ENGINE: "groonga",
    GROONGA_URL: `http://127.0.0.1:${groongaPort}`,
    GROONGA_TIMEOUT_MS: String(GROONGA_TIMEOUT_MS),
    SEARCH_RETRY_INTERVAL_MS: String(RETRY_MS),
  }),
  appEnv: { SEARCH_RATE_LIMIT_MAX: "100000" },
});
const run = `grn${Date.now().toString(36)}`;
const ARTICLES = "/content-manager/collection-types/api::article.article";

const search = (p: string) => getPage(site.app.url, p);
const q = (words: string, extra = "") => `/search?q=${encodeURIComponent(words)}${extra}`;
/** The results' titles, marks kept as `[word]`. */
const titles = (html: string) =>
  [...html.matchAll(/<h2><a href="([^"]*)">([\s\S]*?)<\/a><\/h2>/g)].map(([, href, title]) => ({
    href,
    title: title!.replace(/<mark>([^<]*)<\/mark>/g, "[$1]"),
  }));
const found = (words: string, count: number, prefix = "") =>
  until(
    `${count} result(s) for ${prefix}${words}`,
    () => search(`${prefix}${q(words)}`),
    (page) => titles(page.text).length === count,
    { timeoutMs: PUBLISH_TO_FOUND_MS },
  );

async function publishArticle(admin: StrapiAdmin, data: Record<string, unknown>, locale = "en") {
  const created = (await admin.call("POST", `${ARTICLES}?locale=${locale}`, data)) as { data: { documentId: string } };
  const id = created.data.documentId;
  await admin.call("POST", `${ARTICLES}/${id}/actions/publish?locale=${locale}`, {});
  return id;
}

describe("the seed, indexed in Groonga at the CMS's start", () => {
  it("English: found, marked, stemmed (offices finds office); not the German entry", async () => {
    const page = await search(q("berlin offices"));
    expect(page.status).toBe(200);
    expect(titles(page.text)).toEqual([{ href: "/blog/berlin-office", title: "Acme opens its [Berlin] [office]" }]);
    expect(page.text).toContain("1 result for “berlin offices”");
    // "coffee machines" is stemmed to the excerpt's "coffee machine", marked in the snippet.
    const machines = await search(q("coffee machines"));
    expect(machines.text).toContain("<mark>coffee</mark> <mark>machine</mark>");
  });

  it("German: stemmed in German (Kaffeemaschinen finds Kaffeemaschine), in /de only", async () => {
    const page = await search(`/de${q("kaffeemaschinen")}`);
    expect(titles(page.text)).toEqual([{ href: "/de/blog/buero-berlin", title: "Acme eröffnet ein Büro in Berlin" }]);
    expect(page.text).toContain("<mark>Kaffeemaschine</mark>");
    expect(titles((await search(q("kaffeemaschine"))).text)).toEqual([]);
    // Accents folded as SQLite's index does: "buro" finds "Büro".
    expect(titles((await search(`/de${q("buro berlin")}`)).text)).toContainEqual({
      href: "/de/blog/buero-berlin",
      title: "Acme eröffnet ein [Büro] in [Berlin]",
    });
  });
});

describe("the index follows the editors' writes", () => {
  it("a publish is found, ranked title first, ten a page; an edit, an unpublish and a delete are followed", async () => {
    const admin = await StrapiAdmin.login(site.cms.url);
    // Ten with the word in the excerpt, one with it in the title: ranked first, eleven results.
    const notes: string[] = [];
    for (let i = 0; i < 10; i++) {
      notes.push(
        await publishArticle(admin, { title: `Note ${i}`, slug: `${run}-${i}`, excerpt: `About ${run} again.` }),
      );
    }
    const id = await publishArticle(admin, { title: `Quarterly ${run} report`, slug: `${run}-report` });
    const first = await until(
      "eleven results",
      () => search(q(run)),
      (page) => page.text.includes("11 results"),
      { timeoutMs: PUBLISH_TO_FOUND_MS },
    );
    expect(titles(first.text)).toHaveLength(10);
    expect(titles(first.text)[0]).toEqual({ href: `/blog/${run}-report`, title: `Quarterly [${run}] report` });
    expect(first.text).toContain(`<mark>${run}</mark> again.`);
    expect(titles((await search(q(run, "&page=2"))).text)).toHaveLength(1);
    // Not in the other locale.
    expect(titles((await search(`/de${q(run)}`)).text)).toEqual([]);

    await admin.call("PUT", `${ARTICLES}/${id}?locale=en`, { title: `Yearly ${run} summary` });
    await admin.call("POST", `${ARTICLES}/${id}/actions/publish?locale=en`, {});
    const edited = await found(`${run} yearly`, 1);
    expect(titles(edited.text)).toEqual([{ href: `/blog/${run}-report`, title: `[Yearly] [${run}] summary` }]);
    expect(titles((await search(q(`${run} quarterly`))).text)).toEqual([]);

    await admin.call("POST", `${ARTICLES}/${id}/actions/unpublish?locale=en`, {});
    await found(`${run} yearly`, 0);

    await admin.call("DELETE", `${ARTICLES}/${notes[0]}?locale=en`);
    const afterDelete = await until(
      "nine results",
      () => search(q(run)),
      (page) => page.text.includes("9 results"),
      { timeoutMs: PUBLISH_TO_FOUND_MS },
    );
    expect(titles(afterDelete.text).map(({ href }) => href)).not.toContain(`/blog/${run}-0`);
  });

  it("an editor's markup in a title is text on the results page, never HTML", async () => {
    const admin = await StrapiAdmin.login(site.cms.url);
    await publishArticle(admin, {
      title: `<img src=x onerror=alert(1)> ${run}tag & "quotes"`,
      slug: `${run}-markup`,
    });
    const page = await found(`${run}tag`, 1);
    expect(page.text).not.toContain("<img src=x");
    expect(titles(page.text)[0]!.title).toBe(`&lt;img src=x onerror=alert(1)&gt; [${run}tag] &amp; &quot;quotes&quot;`);
  });
});

describe("a stranger's query", () => {
  it("Groonga's query and script syntax is searched as words: no error, no other query", async () => {
    for (const input of [
      "OR title:@x",
      "-",
      "(",
      '"',
      "berlin*",
      'berlin" || true || "',
      'query("title", "x")',
      "\\",
      "berlin OR zzzz",
      "_key:@x *E-1",
    ]) {
      const page = await search(q(input));
      expect(page.status, input).toBe(200);
      expect(page.text, input).not.toContain("There was a problem");
    }
    // `berlin OR zzzz` is three words, all required: nothing says zzzz.
    expect(titles((await search(q("berlin OR zzzz"))).text)).toEqual([]);
    expect(titles((await search(q("berlin*"))).text).map(({ href }) => href)).toContain("/blog/berlin-office");
    expect((await search(q("-"))).text).toContain("Your search has no words to look for.");
  });
});

/** The CMS's search route, asked as the site asks it. */
const route = (query: string) =>
  fetch(`${site.cms.url}/api/site-search?${query}`, { headers: { authorization: `Bearer ${site.cms.token}` } });
const UNAVAILABLE = { status: 503, name: "ServiceUnavailableError", message: "The search engine is not available" };

describe("Groonga down", () => {
  it("Groonga not answering in time: the CMS's route answers 503 once GROONGA_TIMEOUT_MS has passed", async () => {
    groonga.pause();
    const started = Date.now();
    let answer: Response;
    try {
      answer = await route("q=berlin&locale=en");
    } finally {
      groonga.resume();
    }
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: unknown }).error).toMatchObject(UNAVAILABLE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(GROONGA_TIMEOUT_MS - 100);
    expect((await route("q=berlin&locale=en")).status).toBe(200);
  });

  it("the search answers 503; a publish meanwhile is indexed once Groonga is back", async () => {
    const admin = await StrapiAdmin.login(site.cms.url);
    await groonga.stop();
    try {
      const answer = await route("q=berlin&locale=en");
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { error: unknown }).error).toMatchObject(UNAVAILABLE);
      const down = await search(q("berlin"));
      expect(down.status).toBe(503);
      expect(down.text).toContain("The search is not available at the moment.");
      expect(down.headers.get("cache-control")).toBe("private, no-store");
      const german = await search(`/de${q("berlin")}`);
      expect(german.status).toBe(503);
      // The editor's publish stands; its index write waits.
      await publishArticle(admin, { title: `Written while down ${run}down`, slug: `${run}-down` });
    } finally {
      await groonga.start();
    }
    const page = await until(
      "the article published while Groonga was down",
      () => search(q(`${run}down`)),
      (p) => titles(p.text).length === 1,
      { timeoutMs: RETRY_MS * 4 + PUBLISH_TO_FOUND_MS },
    );
    expect(titles(page.text)).toEqual([{ href: `/blog/${run}-down`, title: `Written while down [${run}down]` }]);
  });

  // Last: the seed's entries are gone from Groonga after it (the CMS's next start would fill it again).
  it("Groonga back on a new, empty database: the search answers (no results), the next publish is found", async () => {
    const admin = await StrapiAdmin.login(site.cms.url);
    await groonga.stop();
    groonga.removeDatabase();
    await groonga.start();
    const empty = await search(q("berlin"));
    expect(empty.status).toBe(200);
    expect(titles(empty.text)).toEqual([]);
    await publishArticle(admin, { title: `After the loss ${run}new`, slug: `${run}-new` });
    const page = await found(`${run}new`, 1);
    expect(titles(page.text)).toEqual([{ href: `/blog/${run}-new`, title: `After the loss [${run}new]` }]);
  });
});
