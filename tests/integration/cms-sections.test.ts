import { createServer, type Server } from "node:http";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { previewLink } from "../support/preview-link.ts";
import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Issue 23, point 1, through the real Strapi and the production site: pages built from sections
// (the page's `sections` dynamic zone, docs/cms-contract.md "Sections"). This file makes its own
// pages with every section type through the admin's content-manager API (as an editor does),
// checks the HTML the site renders (order, images, links, FAQ without JavaScript, headings), the
// seeded demo sections, a draft's sections in preview, that editing a section of a published page
// and publishing revalidates that page, and that a section of a type the site does not know
// renders nothing (logged once) instead of failing the page.
//
// The unknown type: the CMS only accepts the section types of its schema, and they are exactly the
// site's, so a CMS that has a type the site lacks (deployed before the site learns it) is played by
// a pass-through proxy between the site and the real Strapi that renames the call-to-action
// section of pages under /future-cms to `sections.countdown`. Every other request and answer goes
// through untouched.

const secrets = {
  CMS_REVALIDATE_SECRET: "sections-revalidate-secret-0123456789",
  CMS_PREVIEW_SECRET: "sections-preview-secret-0123456789",
};
const PAGES = "/content-manager/collection-types/api::page.page";
const UNKNOWN_TYPE = "sections.countdown";
const proxyPort = await getPort();
let proxy: Server;

// Registered before strapiSite's own beforeAll: the proxy is up before the site starts.
beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    try {
      const upstream = await fetch(`${site.cms.url}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(
            (entry): entry is [string, string] =>
              typeof entry[1] === "string" && !["host", "connection"].includes(entry[0]),
          ),
        ),
        body: req.method === "GET" || req.method === "HEAD" ? undefined : req,
        duplex: "half",
      } as RequestInit);
      const type = upstream.headers.get("content-type") ?? "";
      let body = Buffer.from(await upstream.arrayBuffer());
      if (req.url?.startsWith("/api/pages?") && type.includes("json")) {
        const answer = JSON.parse(body.toString("utf8")) as { data?: Array<Record<string, any>> };
        for (const page of answer.data ?? []) {
          if (!String(page.fullPath ?? "").startsWith("/future-cms")) continue;
          for (const section of page.sections ?? []) {
            if (section.__component === "sections.call-to-action") section.__component = UNKNOWN_TYPE;
          }
        }
        body = Buffer.from(JSON.stringify(answer));
      }
      res.writeHead(upstream.status, { "content-type": type, "content-length": String(body.length) });
      res.end(body);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`sections test proxy: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())));

const site = strapiSite("cms-sections", {
  cmsEnv: () => secrets,
  appEnv: { ...secrets, CMS_URL: `http://127.0.0.1:${proxyPort}` },
});
let admin: StrapiAdmin;
let imageId: number;

beforeAll(async () => {
  admin = await StrapiAdmin.login(site.cms.url);
  // The seeded demo image (1200 × 630, every format), as an editor picks it from the media library.
  const files = (await admin.call("GET", "/upload/files?pageSize=10")) as {
    results: Array<{ id: number; name: string }>;
  };
  const seeded = files.results.find((file) => file.name === "acme-share.png");
  if (!seeded) throw new Error(`the seeded image acme-share.png is not in the media library: ${JSON.stringify(files)}`);
  imageId = seeded.id;
});

const get = (pagePath: string, headers: Record<string, string> = {}) => getPage(site.app.url, pagePath, headers);
const slug = (name: string) => `sections-${name}-${Date.now().toString(36)}`;

/** Every section type, as the admin's content-manager API takes them. */
function allSections(tag: string) {
  return [
    {
      __component: "sections.hero",
      heading: `Hero ${tag}`,
      text: "First paragraph.\n\nSecond paragraph.",
      image: imageId,
      links: [
        { label: "Open positions", url: "/positions" },
        { label: "Partner site", url: "https://partner.example/" },
      ],
    },
    {
      __component: "sections.rich-text",
      body: [{ type: "paragraph", children: [{ type: "text", text: `Rich text ${tag}` }] }],
    },
    {
      __component: "sections.media-with-text",
      heading: `Media ${tag}`,
      text: "Beside the image.",
      image: imageId,
      imagePosition: "right",
      link: { label: "Company", url: "/company" },
    },
    {
      __component: "sections.call-to-action",
      heading: `Act ${tag}`,
      text: "Do it now.",
      links: [
        { label: "Bad", url: "javascript:alert(1)" },
        { label: "Careers", url: "/company/careers" },
      ],
    },
    {
      __component: "sections.card-grid",
      heading: `Cards ${tag}`,
      cards: [
        { title: "Card one", text: "One.", image: imageId, link: { label: "More", url: "/company" } },
        { title: "Card two", text: "Two." },
      ],
    },
    {
      __component: "sections.faq",
      heading: `FAQ ${tag}`,
      items: [
        { question: "Remote?", answer: "Yes." },
        { question: "Hiring?", answer: "Always." },
      ],
    },
    { __component: "sections.quote", quote: `Quote ${tag}`, author: "Sam Rivera", role: "CTO" },
    {
      __component: "sections.logo-cloud",
      heading: `Logos ${tag}`,
      logos: [{ name: "Example Corp", image: imageId, url: "https://example.com/" }],
    },
  ];
}

/** A new page at /<slug> with `sections`, published in en (and de when given). Returns its documentId. */
async function publishedPage(pageSlug: string, sections: unknown[], deSections?: unknown[]): Promise<string> {
  const { data } = (await admin.call("POST", `${PAGES}?locale=en`, {
    title: `Page ${pageSlug}`,
    slug: pageSlug,
    sections,
  })) as { data: { documentId: string } };
  await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
  if (deSections) {
    await admin.call("PUT", `${PAGES}/${data.documentId}?locale=de`, {
      title: `Seite ${pageSlug}`,
      slug: pageSlug,
      sections: deSections,
    });
    await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=de`, {});
  }
  return data.documentId;
}

/** The page's article: what the sections render into. */
const article = (html: string) => html.slice(html.indexOf('<article class="cms-page"'), html.indexOf("</article>"));

/** The attributes of every `<img>` in `html`. */
const images = (html: string) =>
  [...html.matchAll(/<img\b([^>]*)>/g)].map(([, attributes]) =>
    Object.fromEntries(
      [...(attributes ?? "").matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map(([, n, v]) => [n!.toLowerCase(), v!]),
    ),
  );

/** Where each of `needles` first appears in `html` (-1: nowhere). */
const positions = (html: string, needles: string[]) => needles.map((needle) => html.indexOf(needle));

describe("a page built from sections, through the real Strapi", () => {
  it("renders every section type in the editor's order: images with srcset, box and alt; safe links; FAQ as details; headings in order", async () => {
    const pageSlug = slug("all");
    await publishedPage(pageSlug, allSections("en"));
    const page = await get(`/${pageSlug}`);
    expect(page.status).toBe(200);
    const html = article(page.text);

    const order = positions(html, [
      "section-hero",
      "Rich text en",
      "section-media-text-right",
      "section-cta",
      "section-card-grid",
      "section-faq",
      "section-quote",
      "section-logo-cloud",
    ]);
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // One h1 (the title), every section heading h2, the cards' titles h3.
    expect([...html.matchAll(/<h([1-6])\b/g)].map(([, level]) => Number(level))).toEqual([1, 2, 2, 2, 2, 3, 3, 2, 2]);

    // Images: through the site's /uploads, every format in srcset, width/height, alt; only the first eager
    // (the <img> of each <picture>; its AVIF and WebP sources: tests/integration/image-variants.test.ts).
    const imgs = images(html);
    expect(imgs).toHaveLength(4);
    for (const img of imgs) {
      expect(img).toMatchObject({
        // The file's version: its CMS updatedAt (image variants, decision 0036).
        src: expect.stringMatching(/^\/uploads\/acme_share_\w+\.png\?v=\w+$/),
        width: "1200",
        height: "630",
        alt: expect.any(String),
      });
      expect(img.srcset!.split(", ").map((candidate) => candidate.split(" ")[1])).toEqual([
        "245w",
        "500w",
        "750w",
        "1000w",
        "1200w",
      ]);
    }
    expect(imgs.map((img) => img.loading)).toEqual(["eager", "lazy", "lazy", "lazy"]);
    expect(imgs[0]!.alt).toBe("The Acme logo: a white A on dark blue");
    const src = await fetch(`${site.app.url}${imgs[0]!.src}`);
    expect(src.status).toBe(200);
    expect(src.headers.get("content-type")).toBe("image/png");

    // Links: internal ones as they are (default locale), external ones with rel, unsafe ones left out.
    expect(html).toMatch(/<a class="section-button" href="\/positions"[^>]*>Open positions<\/a>/);
    expect(html).toContain(
      '<a href="https://partner.example/" class="section-button section-button-secondary" rel="noopener noreferrer">Partner site</a>',
    );
    expect(html).toContain('<a href="https://example.com/" rel="noopener noreferrer"><picture>');
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain(">Bad<");
    expect(html).toMatch(/<a class="section-button" href="\/company\/careers"[^>]*>Careers<\/a>/);

    // FAQ: <details>/<summary>, closed, working without JavaScript.
    expect(html).toContain(
      '<details class="faq-item"><summary>Remote?</summary><div class="faq-answer"><p class="section-text">Yes.</p></div></details>',
    );
    // The sections' styles are part of the site's one stylesheet (app/styles/sections.css), which a
    // content page carries inline (decision 0035): one <style>, no <link>.
    expect(page.text).not.toContain('rel="stylesheet"');
    const styles = [...page.text.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    const css = styles[0]!;
    expect(css).toContain(".section-hero");
    expect(css).toContain(".faq-item");
  });

  it("a German page: its own sections, its internal links given the /de prefix", async () => {
    const pageSlug = slug("de");
    const de = [
      {
        __component: "sections.call-to-action",
        heading: "Mitmachen",
        links: [{ label: "Karriere", url: "/company/careers" }],
      },
    ];
    await publishedPage(pageSlug, [{ __component: "sections.quote", quote: "English quote" }], de);
    const page = await get(`/de/${pageSlug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Mitmachen");
    expect(page.text).not.toContain("English quote");
    expect(page.text).toMatch(/<a class="section-button" href="\/de\/company\/careers"[^>]*>Karriere<\/a>/);
  });

  it("a page without sections renders as before (title and body only)", async () => {
    const pageSlug = slug("none");
    const { data } = (await admin.call("POST", `${PAGES}?locale=en`, {
      title: "No sections",
      slug: pageSlug,
      body: [{ type: "paragraph", children: [{ type: "text", text: "Just a body." }] }],
    })) as { data: { documentId: string } };
    await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
    const page = await get(`/${pageSlug}`);
    expect(page.status).toBe(200);
    expect(article(page.text)).toContain("<p>Just a body.</p>");
    expect(page.text).not.toContain('class="sections"');
  });

  it("the seeded demo shows sections on the home and careers pages, in both locales", async () => {
    const home = await get("/");
    expect(home.text).toContain("Ship with confidence");
    expect(home.text).toContain("Where to start");
    const deHome = await get("/de");
    expect(deHome.text).toContain("Mit Zuversicht ausliefern");
    expect(deHome.text).toMatch(/href="\/de\/company"[^>]*>Über das Unternehmen</);
    expect((await get("/company/careers")).text).toContain(
      '<details class="faq-item"><summary>Do you hire outside Europe?',
    );
    expect((await get("/de/company/careers")).text).toContain("Häufige Fragen");
  });

  it("editing a section of a published page and publishing revalidates that page: STALE once, then the new section", async () => {
    const pageSlug = slug("edit");
    const id = await publishedPage(pageSlug, allSections("before"));
    // Its publish delivered first: a late batch would make the page STALE below, not the edit.
    await admin.revalidationsSettled();
    await until(
      `/${pageSlug} to be cached`,
      () => get(`/${pageSlug}`),
      (answer) => answer.status === 200 && answer.cache === "HIT",
    );
    expect((await get(`/${pageSlug}`)).text).toContain("Quote before");

    // Reorder (the quote first), edit it, remove the FAQ: one save and publish, as in the admin.
    const edited = allSections("before").filter((section) => section.__component !== "sections.faq");
    const quote = { ...edited.find((section) => section.__component === "sections.quote")!, quote: "Quote after" };
    const sections = [quote, ...edited.filter((section) => section.__component !== "sections.quote")];
    const from = site.app.output().length;
    await admin.call("PUT", `${PAGES}/${id}?locale=en`, { sections });
    // Saved as a draft only: the site still serves the published sections, untouched (HIT).
    expect(await get(`/${pageSlug}`)).toMatchObject({ cache: "HIT", text: expect.stringContaining("Quote before") });
    await admin.call("POST", `${PAGES}/${id}/actions/publish?locale=en`, {});
    await until(
      `the site to log the revalidation of /${pageSlug}`,
      () => site.app.output().slice(from),
      (log) => log.includes(`[revalidate] uid=api::page.page paths=/en/${pageSlug},/${pageSlug} `),
    );

    const stale = await get(`/${pageSlug}`);
    expect(stale).toMatchObject({ status: 200, cache: "STALE" });
    expect(stale.text).toContain("Quote before");
    const fresh = await until(
      `/${pageSlug} to show the published edit`,
      () => get(`/${pageSlug}`),
      (answer) => answer.text.includes("Quote after"),
    );
    const html = article(fresh.text);
    expect(html).not.toContain("Quote before");
    expect(html).not.toContain("section-faq");
    expect(html.indexOf("section-quote")).toBeLessThan(html.indexOf("section-hero"));
  });

  it("preview shows a draft's sections to the editor only; the public page keeps the published ones", async () => {
    const pageSlug = slug("preview");
    const id = await publishedPage(pageSlug, [{ __component: "sections.quote", quote: "Published quote" }]);
    await admin.call("PUT", `${PAGES}/${id}?locale=en`, {
      sections: [
        { __component: "sections.faq", heading: "Draft FAQ", items: [{ question: "Draft?", answer: "Yes." }] },
      ],
    });
    const enter = await get(previewLink(secrets.CMS_PREVIEW_SECRET, { path: `/${pageSlug}` }));
    const cookie = enter.headers.get("set-cookie")?.split(";")[0];
    expect(cookie, `no preview cookie: ${enter.status} ${enter.text.slice(0, 200)}`).toMatch(/^site_preview=/);
    const preview = await get(`/${pageSlug}`, { cookie: cookie! });
    expect(preview.text).toContain("<summary>Draft?</summary>");
    expect(preview.text).not.toContain("Published quote");
    const visitor = await get(`/${pageSlug}`);
    expect(visitor.text).toContain("Published quote");
    expect(visitor.text).not.toContain("Draft FAQ");
  });

  it("a section of a type the site does not know renders nothing, never a 500, logged once per type", async () => {
    const from = site.app.output().length;
    const sections = [
      { __component: "sections.quote", quote: "Before the unknown" },
      { __component: "sections.call-to-action", heading: "Renamed by the proxy", links: [] },
      { __component: "sections.quote", quote: "After the unknown" },
    ];
    // Two pages under /future-cms (the proxy's prefix) with the unknown type: two renders, one log line.
    const first = `/future-cms`;
    const { data } = (await admin.call("POST", `${PAGES}?locale=en`, {
      title: "Future",
      slug: "future-cms",
      sections,
    })) as {
      data: { documentId: string };
    };
    await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
    await admin.call("PUT", `${PAGES}/${data.documentId}?locale=de`, {
      title: "Zukunft",
      slug: "future-cms",
      sections,
    });
    await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=de`, {});

    for (const pagePath of [first, `/de${first}`]) {
      const page = await get(pagePath);
      expect(page.status, pagePath).toBe(200);
      const html = article(page.text);
      expect(html).toContain("Before the unknown");
      expect(html).toContain("After the unknown");
      expect(html).not.toContain("Renamed by the proxy");
      expect(html).not.toContain("section-cta");
    }
    const log = site.app.output().slice(from);
    expect(log.split(`section of unknown type \\"${UNKNOWN_TYPE}\\"`).length - 1).toBe(1);
  });
});
