import { describe, expect, it } from "vitest";

import { headMeta, openGraphLocale, pageHead, type PageHeadInput } from "./head.ts";

const config = { locales: ["en", "de", "fr"], defaultLocale: "en" };
const base: PageHeadInput = {
  page: {
    title: "Careers",
    fullPath: "/careers",
    locale: "de",
    seo: {
      metaTitle: "Karriere | Acme",
      metaDescription: "Arbeiten bei Acme.",
      shareImage: {
        url: "/uploads/share.png",
        alternativeText: "The Acme logo",
        width: 1200,
        height: 630,
        mime: "image/png",
      },
    },
  },
  translations: [
    { locale: "en", fullPath: "/careers" },
    { locale: "de", fullPath: "/careers" },
  ],
  origin: "https://www.example.com",
  mediaBase: null,
  config,
};

/** The descriptors as `name=content` lines, easy to compare. */
function lines(input: PageHeadInput): string[] {
  return headMeta(pageHead(input)).map((tag) => {
    if ("title" in tag) return `title=${String(tag.title)}`;
    if ("tagName" in tag)
      return `link ${String(tag.rel)}${"hrefLang" in tag ? ` ${String(tag.hrefLang)}` : ""}=${String(tag.href)}`;
    const { content, ...key } = tag as { content: string; name?: string; property?: string };
    return `${key.property ?? key.name}=${content}`;
  });
}

describe("the head of a CMS page", () => {
  it("has title, description, canonical, hreflang with x-default, Open Graph and Twitter tags", () => {
    expect(lines(base)).toEqual([
      "title=Karriere | Acme",
      "description=Arbeiten bei Acme.",
      "link canonical=https://www.example.com/de/careers",
      "link alternate en=https://www.example.com/careers",
      "link alternate de=https://www.example.com/de/careers",
      "link alternate x-default=https://www.example.com/careers",
      "og:type=website",
      "og:site_name=Acme",
      "og:title=Karriere | Acme",
      "og:description=Arbeiten bei Acme.",
      "og:url=https://www.example.com/de/careers",
      "og:locale=de",
      "og:locale:alternate=en",
      "og:image=https://www.example.com/uploads/share.png",
      "og:image:type=image/png",
      "og:image:width=1200",
      "og:image:height=630",
      "og:image:alt=The Acme logo",
      "twitter:card=summary_large_image",
      "twitter:title=Karriere | Acme",
      "twitter:description=Arbeiten bei Acme.",
      "twitter:image=https://www.example.com/uploads/share.png",
      "twitter:image:alt=The Acme logo",
    ]);
  });

  it("falls back to the page title, and leaves out what the CMS does not have", () => {
    const input = { ...base, page: { ...base.page, locale: "en", seo: null }, translations: [] };
    expect(lines(input)).toEqual([
      "title=Careers | Acme",
      "link canonical=https://www.example.com/careers",
      "og:type=website",
      "og:site_name=Acme",
      "og:title=Careers | Acme",
      "og:url=https://www.example.com/careers",
      "og:locale=en",
      "twitter:card=summary",
      "twitter:title=Careers | Acme",
    ]);
  });

  it("points to each published locale under its own path, in the configured order", () => {
    const head = pageHead({
      ...base,
      page: { ...base.page, locale: "en" },
      translations: [
        { locale: "fr", fullPath: "/carrieres" },
        { locale: "en", fullPath: "/careers" },
        // a locale the CMS has but the site does not serve: no alternate
        { locale: "it", fullPath: "/carriere" },
      ],
    });
    expect(head.alternates).toEqual([
      { hrefLang: "en", href: "https://www.example.com/careers" },
      { hrefLang: "fr", href: "https://www.example.com/fr/carrieres" },
      { hrefLang: "x-default", href: "https://www.example.com/careers" },
    ]);
  });

  it("has no alternates for a page in one locale only (its translation unpublished, so not listed)", () => {
    expect(pageHead({ ...base, translations: [{ locale: "de", fullPath: "/careers" }] }).alternates).toEqual([]);
    expect(pageHead({ ...base, translations: [] }).alternates).toEqual([]);
  });

  it("has no x-default when the default locale has no version of the page", () => {
    const head = pageHead({ ...base, translations: [{ locale: "fr", fullPath: "/carrieres" }] });
    expect(head.alternates.map((alternate) => alternate.hrefLang)).toEqual(["de", "fr"]);
  });

  it("keeps an absolute share image URL and drops one that is not http(s)", () => {
    const withImage = (url: string) =>
      pageHead({ ...base, page: { ...base.page, seo: { shareImage: { url } } } }).image?.url ?? null;
    expect(withImage("https://cdn.example.com/a.jpg")).toBe("https://cdn.example.com/a.jpg");
    expect(withImage("data:image/png;base64,AAAA")).toBeNull();
  });

  it("writes locales the Open Graph way", () => {
    expect(openGraphLocale("en")).toBe("en");
    expect(openGraphLocale("en-US")).toBe("en_US");
  });
});
