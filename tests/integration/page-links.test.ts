import { beforeAll, describe, expect, it } from "vitest";

import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Links by reference (issue 32, point 5; docs/links.md, decision 0041), through the real Strapi and
// the production site with its page cache. The seeded navbar, footer and sections link to pages and
// an article by reference: moving a target (its slug, or its parent's) re-renders the pages that
// link to it with the new path, no redirect hop; unpublishing or deleting it drops the link. An edit
// that leaves the target's path alone re-renders nothing that only links to it.
//
// A Strapi of its own: the CMS revalidates this file's site (its CLIENT_URL), which the shared one
// cannot (tests/support/shared-cms.ts).

const secrets = { CMS_REVALIDATE_SECRET: "page-links-revalidate-secret-0123456789" };
const site = strapiSite("page-links", { cmsEnv: () => secrets, appEnv: secrets });
const PAGES = "/content-manager/collection-types/api::page.page";

let admin: StrapiAdmin;

/** The [label, href] of each link inside the first element that `region` opens (up to its closing tag). */
function linksIn(html: string, open: RegExp, close: string): Array<[string, string]> {
  const start = html.search(open);
  if (start === -1) return [];
  const part = html.slice(start, html.indexOf(close, start));
  // A card's link names its card too, in a span of its own: the label is the text before it.
  return [...part.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^]*?)<\/a>/g)].map((m) => [m[2]!.split("<")[0]!, m[1]!]);
}
const navLinks = (html: string) => linksIn(html, /<nav aria-label="(Main|Hauptmenü)"/, "</nav>");
const footerLinks = (html: string) => linksIn(html, /<footer/, "</footer>");
const mainLinks = (html: string) => linksIn(html, /<main/, "</main>");

/** Asks for `path` until the page cache has it (HIT). */
async function cached(path: string): Promise<void> {
  await until(
    `${path} to be cached`,
    () => getPage(site.app.url, path),
    (page) => page.status === 200 && page.cache === "HIT",
    { timeoutMs: 20_000, intervalMs: 100 },
  );
}

/** Asks for `path` until its HTML passes `check` (re-rendered after a revalidation), and returns it. */
async function shows(path: string, what: string, check: (html: string) => boolean): Promise<string> {
  const page = await until(
    `${path} to show ${what}`,
    () => getPage(site.app.url, path),
    (answer) => answer.status === 200 && check(answer.text),
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  return page.text;
}

const has = (links: Array<[string, string]>, label: string, href: string) =>
  links.some(([l, h]) => l === label && h === href);
const labelled = (links: Array<[string, string]>, label: string) => links.some(([l]) => l === label);

beforeAll(async () => {
  admin = await StrapiAdmin.login(site.cms.url);
});

describe("links by reference", () => {
  it("render the target's current path in the visitor's locale, a drop-down's children too", async () => {
    const en = (await getPage(site.app.url, "/positions")).text;
    expect(navLinks(en)).toEqual([
      ["Home", "/"],
      ["Company", "/company"],
      ["Careers", "/company/careers"],
      ["Jobs", "/positions"],
      ["Engineering at Acme", "/company/careers/engineering"],
      ["Our Berlin office", "/blog/berlin-office"],
      ["Imprint", "/imprint"],
    ]);
    expect(en).toMatch(/<details class="nav-drop-down"><summary>More<\/summary>/);
    expect(footerLinks(en)).toEqual([
      ["Imprint", "/imprint"],
      ["Jobs", "/positions"],
      ["Contact", "/contact"],
    ]);
    const de = (await getPage(site.app.url, "/de/company")).text;
    expect(navLinks(de)).toEqual([
      ["Start", "/de"],
      ["Unternehmen", "/de/company"],
      ["Karriere", "/de/company/careers"],
      ["Unser Büro in Berlin", "/de/blog/buero-berlin"],
      ["Impressum", "/de/impressum"],
    ]);
    const home = (await getPage(site.app.url, "/")).text;
    expect(has(mainLinks(home), "See open positions", "/positions")).toBe(true);
  });

  it("follow a move: the new path on every page showing the link, at once, with no redirect hop", async () => {
    const company = await admin.pageDocumentId("/company", "en");
    const watched = ["/positions", "/", "/imprint"];
    for (const path of watched) await cached(path);

    // A title edit leaves the path alone: the pages that only link to the company page stay cached.
    await admin.updateAndPublishPage(company, "en", { title: "Company (renamed)" });
    await admin.revalidationsSettled();
    for (const path of watched) expect((await getPage(site.app.url, path)).cache, path).toBe("HIT");

    // The slug: the company page and its descendants (careers, engineering) move.
    await admin.updateAndPublishPage(company, "en", { slug: "about" });
    await admin.revalidationsSettled();
    for (const path of watched) {
      const html = await shows(path, "the moved links", (text) => has(navLinks(text), "Company", "/about"));
      const nav = navLinks(html);
      expect(has(nav, "Careers", "/about/careers"), path).toBe(true);
      expect(has(nav, "Engineering at Acme", "/about/careers/engineering"), path).toBe(true);
      expect(
        nav.some(([, href]) => href.startsWith("/company")),
        path,
      ).toBe(false);
    }
    const home = await shows("/", "the moved card link", (text) => has(mainLinks(text), "Read more", "/about"));
    // The sections' references (the body's links are typed text: docs/links.md).
    expect(has(mainLinks(home), "About the company", "/about")).toBe(true);
    expect(has(mainLinks(home), "Working at Acme", "/about/careers")).toBe(true);
    for (const href of ["/about", "/about/careers", "/about/careers/engineering"]) {
      const page = await getPage(site.app.url, href);
      expect(page.status, href).toBe(200);
      expect(page.location, href).toBeNull();
    }
    // The German versions did not move.
    const de = (await getPage(site.app.url, "/de/impressum")).text;
    expect(has(navLinks(de), "Unternehmen", "/de/company")).toBe(true);
  }, 60_000);

  it("drop a link whose target is unpublished or deleted, rather than point at a 404", async () => {
    const jobs = await admin.pageDocumentId("/positions", "en");
    const imprint = await admin.pageDocumentId("/imprint", "en");
    for (const path of ["/", "/about", "/de"]) await cached(path);

    await admin.call("POST", `${PAGES}/${jobs}/actions/unpublish?locale=en`, {});
    await admin.revalidationsSettled();
    for (const path of ["/", "/about"]) {
      const html = await shows(path, "no Jobs link", (text) => !labelled(navLinks(text), "Jobs"));
      expect(labelled(footerLinks(html), "Jobs"), path).toBe(false);
      expect(html).not.toMatch(/href="\/positions"/);
    }
    expect(mainLinks(await shows("/", "no hero link to jobs", () => true)).map(([l]) => l)).not.toContain(
      "See open positions",
    );

    await admin.call("DELETE", `${PAGES}/${imprint}?locale=en`);
    await admin.revalidationsSettled();
    const about = await shows("/about", "no Imprint link", (text) => !labelled(footerLinks(text), "Imprint"));
    expect(labelled(navLinks(about), "Imprint")).toBe(false);
    // The German imprint is another version of the document, still there: its links stay.
    const de = (await getPage(site.app.url, "/de")).text;
    expect(has(footerLinks(de), "Impressum", "/de/impressum")).toBe(true);
    expect((await getPage(site.app.url, "/de/impressum")).status).toBe(200);
  }, 60_000);
});
