import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { imageAttributes, type MediaFile } from "../lib/cms/media.ts";
import { CmsImage } from "./cms-image.tsx";

const file: MediaFile = {
  url: "/uploads/team_1a2b.png",
  alternativeText: "The team",
  width: 700,
  height: 350,
  mime: "image/png",
  updatedAt: "2026-11-28T09:28:08.942Z",
  formats: { small: { url: "/uploads/small_team_1a2b.png", width: 500, height: 250 } },
};
const v = Date.parse("2026-11-28T09:28:08.942Z").toString(36);
const render = (lazy: boolean, base: string | null = null) =>
  renderToStaticMarkup(<CmsImage media={imageAttributes(file, { base, lazy, sizes: "20rem" })!} />);

describe("CmsImage", () => {
  it("a <picture>: AVIF, then WebP, up to the original's width, then the <img> of the original with its box", () => {
    expect(render(true)).toBe(
      "<picture>" +
        `<source type="image/avif" srcSet="/uploads/_w160/team_1a2b.png.avif?v=${v} 160w, /uploads/_w320/team_1a2b.png.avif?v=${v} 320w, /uploads/_w480/team_1a2b.png.avif?v=${v} 480w, /uploads/_w640/team_1a2b.png.avif?v=${v} 640w, /uploads/_w960/team_1a2b.png.avif?v=${v} 700w" sizes="20rem"/>` +
        `<source type="image/webp" srcSet="/uploads/_w160/team_1a2b.png.webp?v=${v} 160w, /uploads/_w320/team_1a2b.png.webp?v=${v} 320w, /uploads/_w480/team_1a2b.png.webp?v=${v} 480w, /uploads/_w640/team_1a2b.png.webp?v=${v} 640w, /uploads/_w960/team_1a2b.png.webp?v=${v} 700w" sizes="20rem"/>` +
        `<img src="/uploads/team_1a2b.png?v=${v}" srcSet="/uploads/small_team_1a2b.png?v=${v} 500w, /uploads/team_1a2b.png?v=${v} 700w" sizes="20rem" width="700" height="350" alt="The team" loading="lazy" decoding="async"/>` +
        "</picture>",
    );
  });

  it("the page's first image: fetchpriority high, not lazy", () => {
    const out = render(false);
    expect(out).toContain('loading="eager" fetchPriority="high"/>');
    expect(out).not.toContain('loading="lazy"');
  });

  it("an image the site does not serve (CMS_MEDIA_URL): a plain <img>, no sources, no version", () => {
    const out = render(true, "https://media.example.com");
    expect(out).toMatch(/^<img src="https:\/\/media\.example\.com\/uploads\/team_1a2b\.png" /);
    expect(out).not.toContain("<picture>");
    expect(out).not.toContain("?v=");
  });
});
