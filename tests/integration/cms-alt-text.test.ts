import { readFileSync } from "node:fs";

import { beforeAll, describe, expect, it } from "vitest";

import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";

// Issue 32, point 5 (docs/cms-contract.md, "Alternative text"; cms/src/images/): through the real
// Strapi's admin API, as an editor publishes, and the built site. A publish with an informative
// image placed without alternative text (none at the placement, none in the Media Library, not
// marked decorative) is refused with a message naming the field; the text of the placement wins
// over the library's and is the page's language; a decorative image is rendered with alt="".
// Shares the run's Strapi: its own file and pages, addressed by slugs no other file uses.
const site = strapiSite("cms-alt-text", { sharedCms: true });
const PAGES = "/content-manager/collection-types/api::page.page";
const ARTICLES = "/content-manager/collection-types/api::article.article";
const PNG = readFileSync(new URL("../../cms/src/seed/share-image.png", import.meta.url));

let admin: StrapiAdmin;
let bare: { id: number; name: string };
let described: { id: number; name: string };

beforeAll(async () => {
  admin = await StrapiAdmin.login(site.cms.url);
  const stamp = Date.now().toString(36);
  bare = await admin.uploadFile({ bytes: PNG, name: `alt-bare-${stamp}.png`, type: "image/png" });
  described = await admin.uploadFile(
    { bytes: PNG, name: `alt-described-${stamp}.png`, type: "image/png" },
    "A white A on dark blue",
  );
});

const slug = (name: string) => `alt-text-${name}-${Date.now().toString(36)}`;
const get = (pagePath: string) => getPage(site.app.url, pagePath);

/** A new page's draft in `locale` (the English document first). Returns its documentId. */
async function draftPage(fields: Record<string, unknown>, locale = "en", documentId?: string): Promise<string> {
  const { data } = (await admin.call(
    documentId ? "PUT" : "POST",
    `${PAGES}${documentId ? `/${documentId}` : ""}?locale=${locale}`,
    fields,
  )) as { data: { documentId: string } };
  return data.documentId;
}

/** The admin's Publish: resolves to null when published, else to the refusal's status and message. */
async function publish(base: string, documentId: string, locale = "en") {
  try {
    await admin.call("POST", `${base}/${documentId}/actions/publish?locale=${locale}`, {});
    return null;
  } catch (error) {
    const [, status, body] = /: (\d{3}) (.*)$/s.exec((error as Error).message) ?? [];
    return {
      status: Number(status),
      message: (JSON.parse(body ?? "{}") as { error?: { message?: string } }).error?.message,
    };
  }
}

/** The published pages with this slug, as the site reads them (the read-only token). */
async function publishedPages(pageSlug: string): Promise<unknown[]> {
  const query = new URLSearchParams({ "filters[slug][$eq]": pageSlug, locale: "en" });
  const response = await fetch(`${site.cms.url}/api/pages?${query}`, {
    headers: { authorization: `Bearer ${site.cms.token}` },
  });
  return ((await response.json()) as { data: unknown[] }).data;
}

const hero = (fields: Record<string, unknown>) => ({ __component: "sections.hero", heading: "Hero", ...fields });
/** The alt of the first `<img>` at or after the element whose markup holds `marker` (a class). */
const altOf = (html: string, marker: string) => {
  const at = html.indexOf(marker);
  if (at === -1) return null;
  const element = html.slice(0, at).lastIndexOf("<");
  return /<img\b[^>]*\balt="([^"]*)"/.exec(html.slice(element))?.[1] ?? null;
};

describe("alternative text where an image is placed, through the real Strapi", () => {
  it("refuses to publish an informative image without alternative text, naming the field; nothing is published", async () => {
    const pageSlug = slug("refused");
    const documentId = await draftPage({
      title: "Refused",
      slug: pageSlug,
      sections: [
        hero({ image: described.id }),
        { __component: "sections.card-grid", cards: [{ title: "Card", image: bare.id }] },
      ],
      seo: { shareImage: bare.id },
    });

    const refusal = await publish(PAGES, documentId);
    expect(refusal?.status).toBe(400);
    expect(refusal?.message).toBe(
      `Not published: 2 images need alternative text. ` +
        `seo › shareImage (${bare.name}): write its "shareImageAlt" (or give the file alternative text in the Media Library); ` +
        `sections 2 (Card grid) › cards 1 › image (${bare.name}): write its "imageAlt", or switch on "imageDecorative" if it only decorates (or give the file alternative text in the Media Library).`,
    );
    expect(await publishedPages(pageSlug)).toEqual([]);

    // Fixed as the message says: the card decorative, the share image described where it is placed.
    await draftPage(
      {
        sections: [
          hero({ image: described.id }),
          { __component: "sections.card-grid", cards: [{ title: "Card", image: bare.id, imageDecorative: true }] },
        ],
        seo: { shareImage: bare.id, shareImageAlt: "The share card's picture" },
      },
      "en",
      documentId,
    );
    expect(await publish(PAGES, documentId)).toBeNull();
    const page = await get(`/${pageSlug}`);
    expect(page.status).toBe(200);
    // The hero's from the Media Library; the decorative card's empty; the share image's from its placement.
    expect(altOf(page.text, "section-hero")).toBe("A white A on dark blue");
    expect(altOf(page.text, "section-card-grid")).toBe("");
    expect(page.text).toContain('<meta property="og:image:alt" content="The share card&#x27;s picture"/>');
  });

  it("the placement's text wins over the Media Library's, in the page's language", async () => {
    const pageSlug = slug("placed");
    const section = (imageAlt: string) => ({
      __component: "sections.media-with-text",
      heading: "Beside",
      image: described.id,
      imageAlt,
      imagePosition: "left",
    });
    const documentId = await draftPage({ title: "Placed", slug: pageSlug, sections: [section("The Acme logo")] });
    expect(await publish(PAGES, documentId)).toBeNull();
    await draftPage({ title: "Platziert", slug: pageSlug, sections: [section("Das Acme-Logo")] }, "de", documentId);
    expect(await publish(PAGES, documentId, "de")).toBeNull();

    expect(altOf((await get(`/${pageSlug}`)).text, "section-media-text")).toBe("The Acme logo");
    expect(altOf((await get(`/de/${pageSlug}`)).text, "section-media-text")).toBe("Das Acme-Logo");
  });

  it("an article's cover and a body's image block need it too", async () => {
    const articleSlug = slug("article");
    // An image block carries the file as the blocks editor inserts it: the whole file, its alternative text then.
    const file = await admin.call("GET", `/upload/files/${bare.id}`);
    const { data } = (await admin.call("POST", `${ARTICLES}?locale=en`, {
      title: "Covered",
      slug: articleSlug,
      cover: bare.id,
      body: [
        { type: "paragraph", children: [{ type: "text", text: "Text." }] },
        { type: "image", image: file, children: [{ type: "text", text: "" }] },
      ],
    })) as { data: { documentId: string } };

    const refusal = await publish(ARTICLES, data.documentId);
    expect(refusal?.status).toBe(400);
    expect(refusal?.message).toContain(`cover (${bare.name}): write its "coverAlt"`);
    expect(refusal?.message).toContain(
      `body › image (${bare.name}): give the file alternative text in the Media Library, then insert the image again`,
    );

    await admin.call("PUT", `${ARTICLES}/${data.documentId}?locale=en`, {
      coverAlt: "Our new office",
      body: [{ type: "paragraph", children: [{ type: "text", text: "Text." }] }],
    });
    expect(await publish(ARTICLES, data.documentId)).toBeNull();
    const page = await get(`/blog/${articleSlug}`);
    expect(page.status).toBe(200);
    expect(altOf(page.text, "article-cover")).toBe("Our new office");
  });

  it("the seeded demo passes the rule: every image described, in its page's language", async () => {
    const alts = (html: string) => [...html.matchAll(/<img\b[^>]*\balt="([^"]*)"/g)].map(([, alt]) => alt);
    const german = "Das Acme-Logo: ein weißes A auf Dunkelblau";
    for (const [path, expected] of [
      // The hero's own; the logos', from the Media Library (a logo's name only stands in for none).
      ["/", ["The Acme logo", "The Acme logo: a white A on dark blue", "The Acme logo: a white A on dark blue"]],
      ["/de", ["Das Acme-Logo"]],
      ["/company/careers", ["The Acme logo: a white A on dark blue"]],
      ["/de/company/careers", [german]],
      ["/de/company", [german]],
    ] as const) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      // The home pages' latest-articles cards show covers too: each described.
      const found = alts(page.text);
      expect(found.slice(0, expected.length), path).toEqual(expected);
      expect(
        found.filter((alt) => !alt?.trim()),
        path,
      ).toEqual([]);
      expect(page.text, path).toMatch(/<meta property="og:image:alt" content="[^"]+"\/>/);
    }
    const article = await get("/de/blog/buero-berlin");
    expect(altOf(article.text, "article-cover")).toBe(german);
  });
});
