import { afterEach, describe, expect, it, vi } from "vitest";

import { memoryLog } from "../../../tests/support/memory-log.ts";
import {
  LOGGED_TYPES_LIMIT,
  prepareSections,
  resetLoggedSectionTypes,
  resolveSectionLink,
  SECTION_IMAGE_SIZES,
  sectionsSchema,
} from "./sections.server.ts";
import { contentTypeSections, prepareContentTypeSection } from "../../content-types/modules.server.ts";

const config = { locales: ["en", "de"], defaultLocale: "en" };
const file = {
  url: "/uploads/team_abc.png",
  alternativeText: "The team at the summer meet-up",
  width: 1200,
  height: 630,
  mime: "image/png",
  formats: {
    small: { url: "/uploads/small_team_abc.png", width: 500, height: 263 },
    thumbnail: { url: "/uploads/thumbnail_team_abc.png", width: 245, height: 129 },
  },
};
const log = memoryLog();
const options = { base: null, locale: "en", config, imagesBefore: 0, log };

afterEach(() => resetLoggedSectionTypes());

describe("sectionsSchema", () => {
  it("reads every known section type, with Strapi's extra fields (id, documentId) ignored and empty values defaulted", () => {
    const parsed = sectionsSchema.parse([
      { __component: "sections.hero", id: 1, heading: "Hi", text: "", image: { id: 3, ...file }, links: null },
      { __component: "sections.rich-text", id: 1, body: [{ type: "paragraph", children: [] }] },
      { __component: "sections.media-with-text", id: 1, heading: null, text: "t", image: file, imagePosition: null },
      {
        __component: "sections.call-to-action",
        id: 2,
        heading: "Go",
        links: [{ id: 9, label: "Jobs", url: "/positions" }],
      },
      { __component: "sections.card-grid", id: 1, heading: "Cards", cards: [{ title: "A", image: null, link: null }] },
      { __component: "sections.faq", id: 1, items: [{ id: 1, question: "Q?", answer: "A." }] },
      { __component: "sections.quote", id: 1, quote: "Well said.", author: "Sam" },
      { __component: "sections.logo-cloud", id: 1, logos: [{ name: "Example", image: file, url: null }] },
    ]);
    expect(parsed.map((section) => section.__component)).toEqual([
      "sections.hero",
      "sections.rich-text",
      "sections.media-with-text",
      "sections.call-to-action",
      "sections.card-grid",
      "sections.faq",
      "sections.quote",
      "sections.logo-cloud",
    ]);
    expect(parsed[0]).toMatchObject({ heading: "Hi", text: null, links: [] });
    expect(parsed[2]).toMatchObject({ imagePosition: "left", heading: null, link: null });
    expect(parsed[6]).toMatchObject({ quote: "Well said.", author: "Sam", role: null, image: null });
  });

  it("a page without sections (null, missing) has none", () => {
    expect(sectionsSchema.parse(null)).toEqual([]);
    expect(sectionsSchema.parse(undefined)).toEqual([]);
  });

  it("an unknown __component passes as unknown, whatever its fields (kept for a content type that brings it)", () => {
    const countdown = { __component: "sections.countdown", id: 1, count: 3, category: { x: 1 } };
    expect(sectionsSchema.parse([countdown])).toEqual([
      { __component: "sections.countdown", unknown: true, fields: countdown },
    ]);
    // A prototype key is not a known type either.
    expect(sectionsSchema.parse([{ __component: "constructor" }])).toEqual([
      { __component: "constructor", unknown: true, fields: { __component: "constructor" } },
    ]);
  });

  it("a known section of the wrong shape fails, naming the section type", () => {
    const result = sectionsSchema.safeParse([{ __component: "sections.hero", heading: 42 }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^sections\.hero: /);
    expect(sectionsSchema.safeParse([{ heading: "no type" }]).success).toBe(false);
  });
});

describe("resolveSectionLink", () => {
  const link = (url: string, locale = "en") => resolveSectionLink({ label: "L", url }, locale, config, log);

  it("a path on this site: canonical, with the page's locale prefix unless default or already there", () => {
    expect(link("/company")).toEqual({ label: "L", href: "/company", kind: "internal" });
    expect(link("/company", "de")).toEqual({ label: "L", href: "/de/company", kind: "internal" });
    expect(link("/", "de")?.href).toBe("/de");
    expect(link("/company?tab=2#team", "de")?.href).toBe("/de/company?tab=2#team");
    expect(link("/de/company", "de")?.href).toBe("/de/company");
    expect(link("/en/company", "de")?.href).toBe("/en/company");
  });

  it("no open redirect: `//host`, `/\\host` and dot segments stay on this site", () => {
    expect(link("//evil.example/x")).toMatchObject({ href: "/evil.example/x", kind: "internal" });
    expect(link("/\\evil.example")).toMatchObject({ href: "/evil.example", kind: "internal" });
    expect(link("/a/..//evil.example")).toMatchObject({ href: "/evil.example", kind: "internal" });
  });

  it("http(s) is external; mailto:, tel: and #fragment are plain; anything else is refused and logged", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    expect(link("https://example.com/a b")).toEqual({
      label: "L",
      href: "https://example.com/a%20b",
      kind: "external",
    });
    expect(link("mailto:hello@example.com")).toMatchObject({ kind: "plain", href: "mailto:hello@example.com" });
    expect(link("tel:+4912345")).toMatchObject({ kind: "plain" });
    expect(link("#faq")).toMatchObject({ kind: "plain", href: "#faq" });
    expect(warn).not.toHaveBeenCalled();
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "company", "ftp://example.com", "/\tx"]) {
      expect(link(bad), bad).toBeNull();
    }
    expect(warn).toHaveBeenCalledTimes(5);
    expect(String(warn.mock.calls[0]?.[0])).toContain('"javascript:alert(1)" is not a safe address');
  });
});

describe("prepareSections", () => {
  it("images get their <img> attributes (srcset, box, alt, sizes); the first image of the page is eager, later ones lazy", () => {
    const sections = sectionsSchema.parse([
      { __component: "sections.hero", heading: "H", image: file, links: [] },
      { __component: "sections.card-grid", cards: [{ title: "C", image: file }] },
    ]);
    const [hero, grid] = prepareSections(sections, options) as any[];
    expect(hero.image).toEqual({
      src: "/uploads/team_abc.png",
      srcSet: "/uploads/thumbnail_team_abc.png 245w, /uploads/small_team_abc.png 500w, /uploads/team_abc.png 1200w",
      sizes: SECTION_IMAGE_SIZES.half,
      width: 1200,
      height: 630,
      alt: "The team at the summer meet-up",
      loading: "eager",
      fetchPriority: "high",
      sources: [
        { type: "image/avif", srcSet: expect.stringMatching(/^\/uploads\/_w160\/team_abc\.png\.avif 160w, /) },
        { type: "image/webp", srcSet: expect.stringMatching(/^\/uploads\/_w160\/team_abc\.png\.webp 160w, /) },
      ],
    });
    expect(grid.cards[0].image).toMatchObject({ loading: "lazy", sizes: SECTION_IMAGE_SIZES.card });
    expect(grid.cards[0].image).not.toHaveProperty("fetchPriority");
    // After a body image, even the first section image waits.
    const [afterBody] = prepareSections(sections, { ...options, imagesBefore: 1 }) as any[];
    expect(afterBody.image.loading).toBe("lazy");
    // CMS_MEDIA_URL in front of relative URLs.
    const [withBase] = prepareSections(sections, { ...options, base: "https://cdn.example" }) as any[];
    expect(withBase.image.src).toBe("https://cdn.example/uploads/team_abc.png");
  });

  it("an image without a usable address is null (nothing rendered)", () => {
    const sections = sectionsSchema.parse([
      { __component: "sections.quote", quote: "Q", image: { ...file, url: "javascript:alert(1)" } },
    ]);
    expect((prepareSections(sections, options)[0] as any).image).toBeNull();
  });

  it("links are resolved for the page's locale; refused ones are left out", () => {
    vi.spyOn(log, "warn").mockImplementation(() => {});
    const sections = sectionsSchema.parse([
      {
        __component: "sections.call-to-action",
        heading: "Go",
        links: [
          { label: "Jobs", url: "/positions" },
          { label: "Bad", url: "javascript:alert(1)" },
          { label: "Out", url: "https://example.com" },
        ],
      },
      { __component: "sections.logo-cloud", logos: [{ name: "Ex", image: file, url: "https://example.com" }] },
    ]);
    const [cta, logos] = prepareSections(sections, { ...options, locale: "de" }) as any[];
    expect(cta.links).toEqual([
      { label: "Jobs", href: "/de/positions", kind: "internal" },
      { label: "Out", href: "https://example.com/", kind: "external" },
    ]);
    expect(logos.logos[0].link).toEqual({ label: "Ex", href: "https://example.com/", kind: "external" });
  });

  it("a rich-text section's images: attributes as a body's, lazy when an image came before", () => {
    const body = [{ type: "image", image: file, children: [{ type: "text", text: "" }] }];
    const sections = sectionsSchema.parse([{ __component: "sections.rich-text", body }]);
    expect((prepareSections(sections, options)[0] as any).body[0].media.loading).toBe("eager");
    expect((prepareSections(sections, { ...options, imagesBefore: 2 })[0] as any).body[0].media).toMatchObject({
      loading: "lazy",
      alt: "The team at the summer meet-up",
    });
  });

  it("an unknown type stays in the list (rendered as nothing) and is logged once per type", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const sections = sectionsSchema.parse([
      { __component: "sections.countdown", count: 3 },
      { __component: "sections.countdown", count: 5 },
      { __component: "sections.video" },
    ]);
    expect(prepareSections(sections, options)).toEqual([
      { __component: "sections.countdown", unknown: true },
      { __component: "sections.countdown", unknown: true },
      { __component: "sections.video", unknown: true },
    ]);
    prepareSections(sections, options);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      expect.stringContaining('section of unknown type "sections.countdown"'),
      expect.stringContaining('section of unknown type "sections.video"'),
    ]);
  });

  it("the set of logged types is bounded: past the limit, new types are not logged (nor remembered)", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const many = Array.from({ length: LOGGED_TYPES_LIMIT + 20 }, (_, i) => ({ __component: `x.t${i}` }));
    prepareSections(sectionsSchema.parse(many), options);
    prepareSections(sectionsSchema.parse(many), options);
    expect(warn).toHaveBeenCalledTimes(LOGGED_TYPES_LIMIT);
  });

  it("latest articles: the loader's articles as cards (locale-aware links, lazy covers), the blog's link in the page's words", () => {
    const article = {
      documentId: "d",
      locale: "de",
      title: "Acme 3.0 ist da",
      slug: "acme-3",
      excerpt: null,
      publishDate: "2026-10-20T09:00:00.000Z",
      publishedAt: null,
      updatedAt: null,
      date: "2026-10-20T09:00:00.000Z",
      cover: { url: "/uploads/a.png", alternativeText: "A", width: 100, height: 50 },
      category: { name: "Neuigkeiten", slug: "neuigkeiten" },
      author: null,
    };
    // A content type's section (the blog's: app/content-types/blog/), prepared through the registry.
    const sections = sectionsSchema.parse([
      { __component: "sections.latest-articles", heading: "Aus dem Blog", count: 2 },
    ]);
    const typed = contentTypeSections(sections);
    const [section] = prepareSections(sections, {
      ...options,
      locale: "de",
      contentTypeSection: (index) =>
        prepareContentTypeSection(
          typed.find((one) => one.index === index),
          new Map([[0, [article]]]),
          { locale: "de", config, base: null },
        ),
    }) as any[];
    expect(section).toMatchObject({
      __component: "sections.latest-articles",
      heading: "Aus dem Blog",
      blog: { href: "/de/blog", label: "Alle Artikel" },
      articles: [
        {
          title: "Acme 3.0 ist da",
          href: "/de/blog/acme-3",
          category: { name: "Neuigkeiten", href: "/de/blog/category/neuigkeiten" },
          dateTime: "2026-10-20T09:00:00.000Z",
          image: { src: "/uploads/a.png", loading: "lazy" },
        },
      ],
    });
    expect(section.articles[0].dateText).toMatch(/20\. Oktober 2026/);
    // The count is bounded as in the CMS; none given is its default.
    expect(
      contentTypeSections(sectionsSchema.parse([{ __component: "sections.latest-articles" }]))[0]?.data,
    ).toMatchObject({
      count: 3,
      category: null,
    });
    expect(() =>
      contentTypeSections(sectionsSchema.parse([{ __component: "sections.latest-articles", count: 500 }])),
    ).toThrow(/sections.latest-articles section in an unexpected shape/);
  });
});
