import { describe, expect, it } from "vitest";

import { signPreviewCookie } from "../../app/lib/preview/preview-cookie.server.ts";
import { registerCmsUser } from "../support/cms-users.ts";
import { getPage } from "../support/site-requests.ts";
import { siteSession } from "../support/site-session.ts";
import { standInSite } from "../support/stand-in-site.ts";
import { strapiSite } from "../support/strapi-site.ts";

// Issue 31, points 1, 2 and 4 (docs/decisions/0035-no-javascript-on-content-pages.md), the production
// build over HTTP: content pages (the seeded site from the real Strapi: CMS pages, the blog, an
// article, a category, a 404, an error page, a page in preview, a signed-in visitor's page) are
// HTML and CSS only, with the stylesheet inline and the speculation rules; the auth pages hydrate.
const PREVIEW_SECRET = "no-js-pages-preview-secret-0123456789";
const site = strapiSite("no-js-pages", { sharedCms: true, appEnv: { CMS_PREVIEW_SECRET: PREVIEW_SECRET } });
// An error page needs a CMS that fails: the stand-in answers 500 to everything.
const failing = standInSite({ seed: (cms) => cms.setPage({ fullPath: "/company", title: "Company" }) });
const session = siteSession(() => site.app.url);

const previewCookie = (path: string) =>
  `site_preview=${signPreviewCookie(PREVIEW_SECRET, { path, type: "api::page.page", document: "" })}`;

/** Every `<script ...>` start tag of a page. */
const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);

/** What hydration would need: none of it may be on a content page. */
function expectNoClient(html: string) {
  expect(html).not.toContain('<script type="module"');
  expect(html).not.toContain("modulepreload");
  expect(html).not.toContain("__reactRouterContext");
  expect(html).not.toMatch(/<link rel="stylesheet"/);
  expect(scriptTags(html)).toEqual(['<script type="speculationrules">']);
  // The one stylesheet, inline (its first rule: the design tokens).
  expect(html).toMatch(/<style>:root\{/);
}

function expectClient(html: string) {
  expect(html).toContain('<script type="module"');
  expect(html).toContain("__reactRouterContext");
  expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/styles-[\w-]+\.css"\/>/);
  expect(html).not.toContain("speculationrules");
  expect(html).not.toContain("<style>");
}

interface Rule {
  where: Condition;
  eagerness: string;
}
type Condition =
  { and: Condition[] } | { not: Condition } | { href_matches: string | string[] } | { selector_matches: string };

/** The page's speculation rules, parsed as JSON (the browser ignores rules that are not). */
function rulesOf(html: string): { prerender?: Rule[]; prefetch?: Rule[] } {
  const json = /<script type="speculationrules">([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(json).toBeDefined();
  return JSON.parse(json!) as { prerender?: Rule[]; prefetch?: Rule[] };
}

/**
 * Whether a rule's condition takes a link `<a href="{href}">` of a page at `base`, as the browser
 * judges it: URL patterns resolved against the page (Node's URLPattern, the standard's), and the
 * attribute selectors these rules use (any other fails the test: this evaluator would need it).
 */
function takes(condition: Condition, href: string, base: string): boolean {
  if ("and" in condition) return condition.and.every((part) => takes(part, href, base));
  if ("not" in condition) return !takes(condition.not, href, base);
  if ("href_matches" in condition) {
    const patterns = [condition.href_matches].flat();
    return patterns.some((pattern) => new URLPattern(pattern, base).test(new URL(href, base)));
  }
  return condition.selector_matches.split(",").some((selector) => {
    const match = /^\[href([*^])='([^']*)'\]$/.exec(selector.trim());
    if (!match) throw new Error(`the test cannot judge the selector ${selector}`);
    return match[1] === "*" ? href.includes(match[2]!) : href.startsWith(match[2]!);
  });
}

const CONTENT_PAGES = [
  ["the home page", "/"],
  ["a CMS page", "/company"],
  ["a page of sections (FAQ)", "/company/careers"],
  ["a German page", "/de/company"],
  ["the blog", "/blog"],
  ["an article", "/blog/berlin-office"],
  ["a category", "/blog/category/news"],
] as const;

describe("content pages: HTML and CSS only", () => {
  it.each(CONTENT_PAGES)("%s (%s): no module script, modulepreload or hydration data", async (_, path) => {
    const page = await getPage(site.app.url, path);
    expect(page.status).toBe(200);
    expectNoClient(page.text);
  });

  it("the 404: the same", async () => {
    const page = await getPage(site.app.url, "/no-such-page-here");
    expect(page.status).toBe(404);
    expectNoClient(page.text);
  });

  it("an error page (the CMS answers 500): the same", async () => {
    failing.cms.mode = "error";
    const page = await getPage(failing.app.url, "/company");
    expect(page.status).toBeGreaterThanOrEqual(500);
    expect(page.text).toContain('class="error-page"');
    expectNoClient(page.text);
  });

  it("a page in preview (the draft, uncached) hydrates: the client is where live preview listens", async () => {
    const page = await getPage(site.app.url, "/company", { cookie: previewCookie("/company") });
    expect(page.text).toContain("Preview: draft");
    expect(page.text).toContain('<script type="module"');
  });

  it("a signed-in visitor's page: the same, the account link and a plain sign-out form", async () => {
    const email = `no-js-${Date.now()}@example.com`;
    await registerCmsUser(site.cms.url, email, "Correct-horse-1");
    const cookie = await session.signIn(email, "Correct-horse-1");
    const page = await getPage(site.app.url, "/company", { cookie });
    expectNoClient(page.text);
    expect(page.text).toMatch(/<a [^>]*href="\/account"[^>]*>Account<\/a>/);
    expect(page.text).toMatch(
      /<form (?=[^>]*action="\/sign-out")(?=[^>]*method="post")[^>]*><button type="submit">Sign out<\/button><\/form>/,
    );

    const account = await getPage(site.app.url, "/account", { cookie });
    expect(account.status).toBe(200);
    expectClient(account.text);
  });
});

describe("pages that need the client hydrate", () => {
  it.each(["/sign-in", "/register", "/forgot-password", "/de/sign-in"])("%s", async (path) => {
    const page = await getPage(site.app.url, path);
    expect(page.status).toBe(200);
    expectClient(page.text);
  });
});

describe("the speculation rules", () => {
  const prerendered = async (hrefs: string[]) => {
    const base = `${site.app.url}/company`;
    const rules = rulesOf((await getPage(site.app.url, "/company")).text);
    expect(rules.prefetch).toBeUndefined();
    expect(rules.prerender).toHaveLength(1);
    expect(rules.prerender![0]!.eagerness).toBe("moderate");
    return hrefs.filter((href) => takes(rules.prerender![0]!.where, href, base));
  };

  it("prerender the site's pages in every locale", async () => {
    const pages = ["/", "/de", "/company", "/de/company", "/blog", "/blog/berlin-office", "/de/blog/category/news"];
    expect(await prerendered(pages)).toEqual(pages);
  });

  it("never the auth pages (any locale), sign-out, query strings, APIs, files or other sites", async () => {
    const never = [
      "/sign-in",
      "/de/sign-in",
      "/sign-out",
      "/de/sign-out",
      "/register",
      "/account",
      "/de/account/two-factor",
      "/sign-in/two-factor",
      "/confirm-email?confirmation=x",
      "/forgot-password",
      "/reset-password",
      "/blog?page=2",
      "?page=2",
      "/company?logout=1",
      "/api/preview/exit?path=%2F",
      "/api/auth/sign-out",
      "/uploads/logo.png",
      "/blog/rss.xml",
      "/de/blog/rss.xml",
      "/sitemap.xml",
      "/sitemap/1.xml",
      "/robots.txt",
      "#main",
      "https://example.com/company",
    ];
    expect(await prerendered(never)).toEqual([]);
  });
});
