import { describe, expect, it } from "vitest";

import { getPage, postRevalidation } from "../support/site-requests.ts";
import type { StandInCms } from "../support/stand-in-cms.ts";
import { standInSite } from "../support/stand-in-site.ts";
import { until } from "../support/wait.ts";

// The SEO surface over HTTP, the production build against a stand-in CMS: /sitemap.xml
// (through the page cache, revalidated by the page type's tag, the last good copy kept while
// the CMS is down), /robots.txt, and the head of CMS pages (canonical, hreflang, Open Graph,
// Twitter). APP_PUBLIC_URL is not the address the tests use: every absolute URL must come from it.
const SECRET = "revalidate-secret-0123456789";
const PUBLIC = "https://www.example.com";

const site = standInSite({
  seed: (cms) => {
    cms.setPage({ fullPath: "/", title: "Home", updatedAt: "2026-01-01T10:00:00.000Z" });
    cms.setPage({ fullPath: "/", title: "Start", locale: "de", updatedAt: "2026-01-02T10:00:00.000Z" });
    cms.setPage({
      fullPath: "/careers",
      title: "Careers",
      documentId: "careers",
      updatedAt: "2026-02-01T10:00:00.000Z",
      seo: {
        metaTitle: "Work at Acme",
        metaDescription: "Jobs & teams at Acme.",
        shareImage: {
          url: "/uploads/share.png",
          alternativeText: "The Acme logo",
          width: 1200,
          height: 630,
          mime: "image/png",
        },
      },
    });
    cms.setPage({ fullPath: "/karriere", title: "Karriere", locale: "de", documentId: "careers" });
    cms.setPage({ fullPath: "/only-english", title: "Only English", documentId: "only-english" });
    cms.setPage({ fullPath: "/a&b", title: "Ampersand" });
    cms.setPage({ fullPath: "/x", title: "A locale the site does not serve", locale: "fr" });
  },
  env: { APP_PUBLIC_URL: PUBLIC, CMS_REVALIDATE_SECRET: SECRET, CMS_FETCH_TIMEOUT_MS: "1000" },
});

const get = (path: string) => getPage(site.app.url, path);
/** What the CMS sends on a page publish. */
const revalidate = (next: { fullPaths?: string[]; tags?: string[] }) => postRevalidation(site.app.url, SECRET, next);

/** Until `path` is a HIT whose body passes `check` (the background regeneration has landed). */
const eventuallyHit = (path: string, check: (text: string) => boolean) =>
  until(
    `${path} to be the expected HIT`,
    () => get(path),
    (result) => result.cache === "HIT" && check(result.text),
  );

const waitForOutput = (pattern: RegExp) =>
  until(
    `the site to log ${pattern}`,
    () => site.app.output(),
    (output) => pattern.test(output),
  );

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
const listRequests = (cms: StandInCms) =>
  cms.requests.filter((request) => request.startsWith("/api/pages?") && request.includes("pagination[page]=")).length;

/** The head's <meta> and <link> tags as attribute maps. */
function headTags(html: string) {
  const head = /<head>([\s\S]*)<\/head>/.exec(html)?.[1] ?? "";
  const decode = (value: string) =>
    value
      .replaceAll("&quot;", '"')
      .replaceAll("&#x27;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  return [...head.matchAll(/<(meta|link)\s([^>]*?)\/?>/g)].map(([, tag, attributes]) => ({
    tag,
    ...Object.fromEntries(
      [...attributes!.matchAll(/([a-zA-Z:-]+)="([^"]*)"/g)].map(([, name, value]) => [
        name!.toLowerCase(),
        decode(value!),
      ]),
    ),
  })) as Array<Record<string, string>>;
}

const metaContent = (tags: Array<Record<string, string>>, key: string) =>
  tags.filter((tag) => tag.tag === "meta" && (tag.property === key || tag.name === key)).map((tag) => tag.content);
const alternates = (tags: Array<Record<string, string>>) =>
  Object.fromEntries(tags.filter((tag) => tag.rel === "alternate").map((tag) => [tag.hreflang, tag.href]));
const canonical = (tags: Array<Record<string, string>>) =>
  tags.filter((tag) => tag.rel === "canonical").map((tag) => tag.href);

describe("/sitemap.xml", () => {
  it("CMS down and nothing good cached: 503 with Retry-After, never an empty sitemap", async () => {
    site.cms.mode = "error";
    const down = await get("/sitemap.xml");
    expect(down.status).toBe(503);
    expect(down.response.headers.get("retry-after")).toBe("120");
    expect(down.text).not.toContain("<urlset");
    site.cms.mode = "healthy";

    // A CMS that answers with no published page at all: a 503 too, not an empty urlset.
    const pages = site.cms.pages;
    site.cms.pages = new Map();
    const empty = await get("/sitemap.xml");
    site.cms.pages = pages;
    expect(empty.status).toBe(503);
    expect(empty.response.headers.get("retry-after")).toBe("120");
    // The empty listing is in the data cache (the index and every part read the same answers):
    // pages published since come with the list's tag, as the CMS sends it.
    await postRevalidation(site.app.url, SECRET, { tags: ["cms:api::page.page:list:*"] });
  });

  it("lists every published page in each configured locale: canonical, escaped, with lastmod", async () => {
    const { status, cache, response, text } = await get("/sitemap.xml");
    expect(status).toBe(200);
    expect(cache).toBe("MISS");
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(
      text.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ),
    ).toBe(true);
    expect(text.trimEnd().endsWith("</urlset>")).toBe(true);
    expect(locs(text).sort()).toEqual(
      [
        `${PUBLIC}/`,
        `${PUBLIC}/de`,
        `${PUBLIC}/careers`,
        `${PUBLIC}/de/karriere`,
        `${PUBLIC}/only-english`,
        `${PUBLIC}/a&amp;b`,
      ].sort(),
    );
    expect(text).toContain(`<url><loc>${PUBLIC}/careers</loc><lastmod>2026-02-01T10:00:00.000Z</lastmod></url>`);
    expect(text).toContain(`<url><loc>${PUBLIC}/only-english</loc></url>`);
    expect(text).not.toContain("/x<");
  });

  it("is one plain file while the pages fit in it: there is no part file (sitemap-index.test.ts)", async () => {
    expect((await get("/sitemap.xml")).text).not.toContain("<sitemapindex");
    const part = await get("/sitemap/1.xml");
    expect(part.status).toBe(404);
    expect(part.text).not.toContain("<urlset");
  });

  it("is served from the cache, tagged with the lists and documents it read, without asking the CMS again", async () => {
    const before = listRequests(site.cms);
    const { cache, response } = await get("/sitemap.xml");
    expect(cache).toBe("HIT");
    // The lists of every locale of pages and articles (no article here), their sort's fields (the
    // pages' `fullPath` among the page tags left out), and each page listed.
    const tags = response.headers.get("cache-tag")?.split(",") ?? [];
    expect(tags.filter((tag) => !/^cms:api::page\.page:(?!list:)/.test(tag)).sort()).toEqual([
      "cms:api::article.article",
      "cms:api::article.article:field:*:slug",
      "cms:api::article.article:list:*",
      "cms:api::page.page",
      "cms:api::page.page:list:*",
      "path:/sitemap.xml",
    ]);
    expect(tags).toContain("cms:api::page.page:careers");
    expect(listRequests(site.cms)).toBe(before);
  });

  it("is revalidated by a page publish (the page list's tag): the new page is listed", async () => {
    site.cms.setPage({ fullPath: "/new", title: "New", updatedAt: "2026-03-01T10:00:00.000Z" });
    expect(locs((await get("/sitemap.xml")).text)).not.toContain(`${PUBLIC}/new`);
    // A first publish sends its paths, its document's tag and the lists it joins (docs/cms-contract.md).
    await revalidate({
      fullPaths: ["/new"],
      tags: ["cms:api::page.page:doc-/new", "cms:api::page.page:list:en", "cms:api::page.page:list:*"],
    });
    const stale = await get("/sitemap.xml");
    expect(stale.cache).toBe("STALE");
    expect(locs(stale.text)).not.toContain(`${PUBLIC}/new`);
    const fresh = await eventuallyHit("/sitemap.xml", (text) => text.includes(`${PUBLIC}/new<`));
    expect(fresh.text).toContain(`<url><loc>${PUBLIC}/new</loc><lastmod>2026-03-01T10:00:00.000Z</lastmod></url>`);
  });

  it("keeps serving the last good copy while the CMS is down, and recovers when it is back", async () => {
    const good = (await eventuallyHit("/sitemap.xml", () => true)).text;
    site.cms.mode = "error";
    site.cms.setPage({ fullPath: "/during-outage", title: "Published during the outage" });
    await revalidate({ fullPaths: ["/during-outage"], tags: ["cms:api::page.page:list:*"] });

    const first = await get("/sitemap.xml");
    expect(first.status).toBe(200);
    expect(first.cache).toBe("STALE");
    expect(first.text).toBe(good);
    // The regeneration behind it failed (the CMS answered 500): the good copy stays.
    await waitForOutput(/\[cache\] regenerating \/sitemap\.xml failed/);
    const again = await get("/sitemap.xml");
    expect(again.status).toBe(200);
    expect(again.text).toBe(good);

    site.cms.mode = "healthy";
    await eventuallyHit("/sitemap.xml", (text) => text.includes(`${PUBLIC}/during-outage<`));
  });
});

describe("/robots.txt", () => {
  it("names the absolute sitemap URL of APP_PUBLIC_URL", async () => {
    const { status, response, text } = await get("/robots.txt");
    expect(status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(text).toContain("User-agent: *\n");
    expect(text).toContain("Disallow: /api/\n");
    expect(text).toContain(`Sitemap: ${PUBLIC}/sitemap.xml\n`);
  });
});

describe("the head of a CMS page", () => {
  it("has its canonical URL, hreflang alternates with x-default, Open Graph and Twitter tags", async () => {
    const tags = headTags((await get("/careers")).text);
    expect(canonical(tags)).toEqual([`${PUBLIC}/careers`]);
    expect(alternates(tags)).toEqual({
      en: `${PUBLIC}/careers`,
      de: `${PUBLIC}/de/karriere`,
      "x-default": `${PUBLIC}/careers`,
    });
    expect(metaContent(tags, "description")).toEqual(["Jobs & teams at Acme."]);
    expect(metaContent(tags, "og:title")).toEqual(["Work at Acme"]);
    expect(metaContent(tags, "og:description")).toEqual(["Jobs & teams at Acme."]);
    expect(metaContent(tags, "og:url")).toEqual([`${PUBLIC}/careers`]);
    expect(metaContent(tags, "og:type")).toEqual(["website"]);
    expect(metaContent(tags, "og:locale")).toEqual(["en"]);
    expect(metaContent(tags, "og:locale:alternate")).toEqual(["de"]);
    expect(metaContent(tags, "og:image")).toEqual([`${PUBLIC}/uploads/share.png`]);
    expect(metaContent(tags, "og:image:alt")).toEqual(["The Acme logo"]);
    expect(metaContent(tags, "twitter:card")).toEqual(["summary_large_image"]);
    expect(metaContent(tags, "twitter:image")).toEqual([`${PUBLIC}/uploads/share.png`]);
  });

  it("points to the canonical URL from every spelling and locale of the page, the home page too", async () => {
    expect(canonical(headTags((await get("/en/careers")).text))).toEqual([`${PUBLIC}/careers`]);
    const german = headTags((await get("/de/karriere")).text);
    expect(canonical(german)).toEqual([`${PUBLIC}/de/karriere`]);
    expect(metaContent(german, "og:locale")).toEqual(["de"]);
    expect(alternates(german)["x-default"]).toBe(`${PUBLIC}/careers`);

    const home = headTags((await get("/")).text);
    expect(canonical(home)).toEqual([`${PUBLIC}/`]);
    expect(alternates(home)).toEqual({ en: `${PUBLIC}/`, de: `${PUBLIC}/de`, "x-default": `${PUBLIC}/` });
    expect(metaContent(home, "twitter:card")).toEqual(["summary"]);
  });

  it("has no alternate for a translation that is not published; publishing it revalidates the page", async () => {
    await get("/only-english");
    const before = await get("/only-english");
    expect(before.cache).toBe("HIT");
    expect(alternates(headTags(before.text))).toEqual({});
    expect(before.response.headers.get("cache-tag")?.split(",")).toContain("cms:api::page.page:only-english");

    // The German translation is published under its own path: the CMS sends that path and the
    // document's tag, which the English page's alternates carry.
    site.cms.setPage({ fullPath: "/nur-englisch", title: "Nur Englisch", locale: "de", documentId: "only-english" });
    await revalidate({
      fullPaths: ["/de/nur-englisch"],
      tags: ["cms:api::page.page:only-english", "cms:api::page.page:list:de", "cms:api::page.page:list:*"],
    });
    const after = await eventuallyHit("/only-english", (text) => text.includes("/de/nur-englisch"));
    expect(alternates(headTags(after.text))).toEqual({
      en: `${PUBLIC}/only-english`,
      de: `${PUBLIC}/de/nur-englisch`,
      "x-default": `${PUBLIC}/only-english`,
    });
  });
});
