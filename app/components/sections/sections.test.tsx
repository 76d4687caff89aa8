import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";

import type { ImageAttributes } from "../../lib/cms/media.ts";
import { SectionView } from "./registry.tsx";
import type { CardGridSection, Section, SectionLink } from "./types.ts";

const html = (section: Section) =>
  renderToStaticMarkup(<MemoryRouter>{<SectionView section={section} />}</MemoryRouter>);

const image: ImageAttributes = {
  src: "/uploads/a.png",
  srcSet: "/uploads/small_a.png 500w, /uploads/a.png 1200w",
  sizes: "60rem",
  width: 1200,
  height: 630,
  alt: "A team photo",
  loading: "lazy",
};
const internal: SectionLink = { label: "Jobs", href: "/de/positions", kind: "internal" };
const external: SectionLink = { label: "Partner", href: "https://example.com/", kind: "external" };
const mail: SectionLink = { label: "Mail", href: "mailto:a@example.com", kind: "plain" };

/** The headings' levels in document order. */
const headingLevels = (out: string) => [...out.matchAll(/<h([1-6])\b/g)].map(([, level]) => Number(level));
const IMG =
  '<img src="/uploads/a.png" srcSet="/uploads/small_a.png 500w, /uploads/a.png 1200w" sizes="60rem" width="1200" height="630" alt="A team photo" loading="lazy" decoding="async"/>';

describe("section components", () => {
  it("hero: a region named by its h2, text paragraphs, the links (first primary, external with rel), the image through CmsImage", () => {
    const out = html({
      __component: "sections.hero",
      heading: "Ship it",
      text: "One.\n\nTwo.",
      image,
      links: [internal, external],
    });
    const id = out.match(/aria-labelledby="([^"]+)"/)?.[1];
    expect(id).toBeTruthy();
    expect(out).toContain(`<h2 id="${id}">Ship it</h2>`);
    expect(out).toContain('<p class="section-text">One.</p><p class="section-text">Two.</p>');
    expect(out).toContain('<a class="section-button" href="/de/positions" data-discover="true">Jobs</a>');
    expect(out).toContain(
      '<a href="https://example.com/" class="section-button section-button-secondary" rel="noopener noreferrer">Partner</a>',
    );
    expect(out).toContain(IMG);
  });

  it("hero without image, text or links: just the heading", () => {
    const out = html({ __component: "sections.hero", heading: "Only", text: null, image: null, links: [] });
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<ul");
    expect(out).not.toContain("<p");
  });

  it("rich text: the blocks as a page body, images as figures", () => {
    const out = html({
      __component: "sections.rich-text",
      body: [
        { type: "heading", level: 2, children: [{ type: "text", text: "Offer" }] },
        { type: "paragraph", children: [{ type: "text", text: "Budget." }] },
        {
          type: "image",
          image: { url: "/uploads/a.png", alternativeText: "A team photo", caption: "Us" },
          media: image,
          children: [{ type: "text", text: "" }],
        } as never,
      ],
    });
    expect(out).toContain('<section class="section section-rich-text"><h2>Offer</h2><p>Budget.</p>');
    expect(out).toContain(`<figure class="cms-image">${IMG}<figcaption>Us</figcaption></figure>`);
    expect(html({ __component: "sections.rich-text", body: [] })).toBe("");
  });

  it("media with text: the position as a class, image and text, the link", () => {
    const section = {
      __component: "sections.media-with-text",
      heading: "Remote",
      text: "We work remotely.",
      image,
      imagePosition: "right",
      link: mail,
    } as const;
    const out = html(section);
    expect(out).toMatch(
      /^<section class="section section-media-text section-media-text-right" aria-labelledby="[^"]+">/,
    );
    expect(out).toContain(`<div class="section-media-text-media">${IMG}</div>`);
    expect(out).toContain('<p><a href="mailto:a@example.com">Mail</a></p>');
    expect(html({ ...section, imagePosition: "left" })).toContain("section-media-text-left");
    // No heading: no name, no dangling aria-labelledby.
    expect(html({ ...section, heading: null })).not.toContain("aria-labelledby");
  });

  it("call to action: heading, text, links", () => {
    const out = html({ __component: "sections.call-to-action", heading: "Join", text: "Now.", links: [internal] });
    expect(out).toMatch(/<section class="section section-cta" aria-labelledby="[^"]+"><h2 id="[^"]+">Join<\/h2>/);
    expect(out).toContain('<ul class="section-links"><li><a class="section-button" href="/de/positions"');
  });

  it("card grid: a list of cards, titles h3 below the grid's h2 (h2 when the grid has no heading)", () => {
    const section: CardGridSection = {
      __component: "sections.card-grid",
      heading: "Start here",
      cards: [
        { title: "One", text: "First.", image, link: internal },
        { title: "Two", text: null, image: null, link: null },
      ],
    };
    const out = html(section);
    expect(headingLevels(out)).toEqual([2, 3, 3]);
    expect(out).toContain('<ul class="card-grid"><li class="card">' + IMG + '<h3 class="card-title">One</h3>');
    // The link's name says which card it leads from ("Jobs: One"), whatever its visible label.
    expect(out).toContain(
      '<p class="card-link"><a href="/de/positions" data-discover="true">Jobs<span class="visually-hidden">: One</span></a></p>',
    );
    expect(headingLevels(html({ ...section, heading: null }))).toEqual([2, 2]);
  });

  it("FAQ: each item a <details> with the question as <summary>, closed, no script", () => {
    const out = html({
      __component: "sections.faq",
      heading: "Questions",
      items: [
        { question: "Remote?", answer: "Yes.\n\nAnywhere." },
        { question: "How long?", answer: "Three weeks." },
      ],
    });
    expect(out).toContain(
      '<details class="faq-item"><summary>Remote?</summary><div class="faq-answer"><p class="section-text">Yes.</p><p class="section-text">Anywhere.</p></div></details>',
    );
    expect(out.match(/<details/g)).toHaveLength(2);
    expect(out).not.toMatch(/<details[^>]* open/);
    expect(out).not.toContain("<script");
    expect(html({ __component: "sections.faq", heading: "Empty", items: [] })).toBe("");
  });

  it("quote: a figure with blockquote and a caption citing the author", () => {
    const out = html({ __component: "sections.quote", quote: "Boring releases.", author: "Sam", role: "CTO", image });
    expect(out).toBe(
      `<figure class="section section-quote"><blockquote><p class="section-text">Boring releases.</p></blockquote><figcaption>${IMG}<cite>Sam</cite>, <span class="section-quote-role">CTO</span></figcaption></figure>`,
    );
    expect(html({ __component: "sections.quote", quote: "Q", author: null, role: null, image: null })).not.toContain(
      "figcaption",
    );
  });

  it("logo cloud: alt falls back to the name, a linked logo's image names its link, no image shows the name", () => {
    const out = html({
      __component: "sections.logo-cloud",
      heading: "Customers",
      logos: [
        { name: "Example", image: { ...image, alt: "" }, link: { ...external, label: "Example" } },
        { name: "Sample", image, link: null },
        { name: "Text Only", image: null, link: null },
      ],
    });
    expect(out).toContain('<a href="https://example.com/" rel="noopener noreferrer"><img src="/uploads/a.png"');
    expect(out).toContain('alt="Example"');
    expect(out).toContain('alt="A team photo"');
    expect(out).toContain("<li>Text Only</li>");
  });

  it("latest articles: heading, a list of article cards (h3 titles linking to the article, date, category), the blog link", () => {
    const out = html({
      __component: "sections.latest-articles",
      heading: "From the blog",
      articles: [
        {
          title: "Acme 3.0 is out",
          href: "/blog/acme-3",
          excerpt: "A new editor.",
          dateTime: "2026-10-20T09:00:00.000Z",
          dateText: "20 October 2026",
          image: null,
          category: { name: "Company news", href: "/blog/category/news" },
          author: "Jonas Weber",
        },
      ],
      blog: { href: "/blog", label: "All articles" },
    } as Section);
    expect(out).toContain('<section class="section section-latest-articles"');
    expect(out).toMatch(/<h2 id="[^"]+">From the blog<\/h2>/);
    expect(out).toContain('<h3><a href="/blog/acme-3"');
    expect(out).toContain('<time dateTime="2026-10-20T09:00:00.000Z">20 October 2026</time>');
    expect(out).toContain('href="/blog/category/news"');
    expect(out).toContain('<a href="/blog"');
    // No articles (yet): nothing at all.
    expect(
      html({ __component: "sections.latest-articles", heading: "From the blog", articles: [], blog: null } as Section),
    ).toBe("");
  });
});
