import { describe, expect, it } from "vitest";

import {
  absoluteMediaUrl,
  BODY_IMAGE_SIZES,
  imageAttributes,
  mediaSrc,
  mediaSrcSet,
  variantSources,
  withBodyMedia,
  type MediaFile,
} from "./media.ts";

/** What Strapi's local provider stores for a 1200 × 630 PNG: every format is narrower. */
const photo: MediaFile = {
  url: "/uploads/team_1a2b3c.png",
  alternativeText: "The team at the offsite",
  caption: null,
  width: 1200,
  height: 630,
  mime: "image/png",
  formats: {
    large: { url: "/uploads/large_team_1a2b3c.png", width: 1000, height: 525, mime: "image/png" },
    small: { url: "/uploads/small_team_1a2b3c.png", width: 500, height: 263, mime: "image/png" },
    medium: { url: "/uploads/medium_team_1a2b3c.png", width: 750, height: 394, mime: "image/png" },
    thumbnail: { url: "/uploads/thumbnail_team_1a2b3c.png", width: 245, height: 129, mime: "image/png" },
  },
};

describe("mediaSrc", () => {
  it("keeps Strapi's relative /uploads/ URLs relative (the site's proxy answers them) without a media base", () => {
    expect(mediaSrc("/uploads/a.png", null)).toBe("/uploads/a.png");
    expect(mediaSrc("/uploads/folder/a.png", null)).toBe("/uploads/folder/a.png");
  });

  it("puts CMS_MEDIA_URL before relative URLs when it is set", () => {
    expect(mediaSrc("/uploads/a.png", "https://media.example.com")).toBe("https://media.example.com/uploads/a.png");
    expect(mediaSrc("/uploads/a.png", "https://cdn.example.com/cms")).toBe("https://cdn.example.com/cms/uploads/a.png");
  });

  it("leaves absolute http(s) URLs of cloud providers untouched, with or without a base", () => {
    const s3 = "https://bucket.s3.eu-central-1.amazonaws.com/a_1a2b.png";
    expect(mediaSrc(s3, null)).toBe(s3);
    expect(mediaSrc(s3, "https://media.example.com")).toBe(s3);
  });

  it("gives no address for what nothing would serve, or what is not an image address", () => {
    for (const url of ["/elsewhere/a.png", "/uploads/", "uploads/a.png", "//evil.example/a.png", "/\\evil.example"]) {
      expect(mediaSrc(url, null), url).toBeNull();
    }
    expect(mediaSrc("javascript:alert(1)", null)).toBeNull();
    expect(mediaSrc("data:image/png;base64,AAAA", "https://media.example.com")).toBeNull();
    expect(mediaSrc("//evil.example/a.png", "https://media.example.com")).toBeNull();
  });
});

describe("absoluteMediaUrl (og:image)", () => {
  it("puts the site's origin before a proxied path, the media base before a relative one, and keeps absolute ones", () => {
    expect(absoluteMediaUrl("/uploads/a.png", null, "https://www.example.com")).toBe(
      "https://www.example.com/uploads/a.png",
    );
    expect(absoluteMediaUrl("/uploads/a.png", "https://media.example.com", "https://www.example.com")).toBe(
      "https://media.example.com/uploads/a.png",
    );
    expect(absoluteMediaUrl("https://bucket.example/a.png", null, "https://www.example.com")).toBe(
      "https://bucket.example/a.png",
    );
    expect(absoluteMediaUrl("javascript:alert(1)", null, "https://www.example.com")).toBeNull();
  });
});

describe("mediaSrcSet", () => {
  it("lists every format and the original, narrowest first, whatever order Strapi gives them in", () => {
    expect(mediaSrcSet(photo, null)).toBe(
      [
        "/uploads/thumbnail_team_1a2b3c.png 245w",
        "/uploads/small_team_1a2b3c.png 500w",
        "/uploads/medium_team_1a2b3c.png 750w",
        "/uploads/large_team_1a2b3c.png 1000w",
        "/uploads/team_1a2b3c.png 1200w",
      ].join(", "),
    );
  });

  it("always includes the original: a 600 px image has only thumbnail and small", () => {
    const small: MediaFile = {
      url: "/uploads/logo.png",
      width: 600,
      height: 300,
      formats: {
        thumbnail: { url: "/uploads/thumbnail_logo.png", width: 245, height: 123 },
        small: { url: "/uploads/small_logo.png", width: 500, height: 250 },
      },
    };
    expect(mediaSrcSet(small, null)).toBe(
      "/uploads/thumbnail_logo.png 245w, /uploads/small_logo.png 500w, /uploads/logo.png 600w",
    );
  });

  it("applies the media base to every candidate", () => {
    expect(mediaSrcSet(photo, "https://media.example.com")?.split(", ")).toEqual([
      "https://media.example.com/uploads/thumbnail_team_1a2b3c.png 245w",
      "https://media.example.com/uploads/small_team_1a2b3c.png 500w",
      "https://media.example.com/uploads/medium_team_1a2b3c.png 750w",
      "https://media.example.com/uploads/large_team_1a2b3c.png 1000w",
      "https://media.example.com/uploads/team_1a2b3c.png 1200w",
    ]);
  });

  it("is null with nothing to choose from: no formats, an unknown width, or only unusable formats", () => {
    expect(mediaSrcSet({ ...photo, formats: null }, null)).toBeNull();
    expect(mediaSrcSet({ ...photo, formats: {} }, null)).toBeNull();
    expect(mediaSrcSet({ ...photo, width: null }, null)).toBeNull();
    expect(
      mediaSrcSet(
        {
          ...photo,
          formats: {
            small: { url: "javascript:x", width: 500 },
            medium: { url: "/uploads/m.png" },
            large: "not a format",
            thumbnail: { url: "/uploads/has space.png", width: 245 },
          },
        },
        null,
      ),
    ).toBeNull();
  });

  it("skips formats other than Strapi's four and a format as wide as the original", () => {
    const file: MediaFile = {
      url: "/uploads/a.png",
      width: 500,
      height: 250,
      formats: {
        small: { url: "/uploads/small_a.png", width: 500 },
        thumbnail: { url: "/uploads/thumbnail_a.png", width: 245 },
        xlarge: { url: "/uploads/x_a.png", width: 2000 },
      },
    };
    expect(mediaSrcSet(file, null)).toBe("/uploads/thumbnail_a.png 245w, /uploads/a.png 500w");
  });
});

describe("imageAttributes", () => {
  it("gives alt, the box, srcset and sizes, AVIF and WebP sources, and lazy loading when asked", () => {
    expect(imageAttributes(photo, { base: null, lazy: true })).toEqual({
      src: "/uploads/team_1a2b3c.png",
      srcSet: mediaSrcSet(photo, null),
      sizes: BODY_IMAGE_SIZES,
      sources: variantSources(photo, "/uploads/team_1a2b3c.png"),
      width: 1200,
      height: 630,
      alt: "The team at the offsite",
      loading: "lazy",
    });
  });

  it("the page's first image (not lazy): eager and fetched first; a lazy one never has the high priority", () => {
    expect(imageAttributes(photo, { base: null, lazy: false })).toMatchObject({
      loading: "eager",
      fetchPriority: "high",
    });
    expect(imageAttributes(photo, { base: null, lazy: true })).not.toHaveProperty("fetchPriority");
  });

  it("gives an empty alt when the editor wrote none, and no box when a dimension is missing", () => {
    const attributes = imageAttributes(
      { url: "/uploads/a.png", alternativeText: null, width: 100, height: null },
      { base: null, lazy: false },
    );
    expect(attributes).toEqual({ src: "/uploads/a.png", alt: "", loading: "eager", fetchPriority: "high" });
  });

  it("puts the file's version (its updatedAt) on every address the site serves: the original, each format, each variant", () => {
    const updatedAt = "2026-11-28T09:28:08.942Z";
    const version = Date.parse(updatedAt).toString(36);
    const attributes = imageAttributes({ ...photo, updatedAt }, { base: null, lazy: true })!;
    expect(attributes.src).toBe(`/uploads/team_1a2b3c.png?v=${version}`);
    const urls = [attributes.srcSet!, ...attributes.sources!.map((source) => source.srcSet)]
      .flatMap((srcSet) => srcSet.split(", "))
      .map((candidate) => candidate.split(" ")[0]!);
    expect(urls).toHaveLength(5 + 2 * 6);
    for (const url of urls) expect(url, url).toMatch(new RegExp(`^/uploads/[^?]+\\?v=${version}$`));
    // Elsewhere (CMS_MEDIA_URL, a cloud provider) the site neither versions nor converts.
    const elsewhere = imageAttributes({ ...photo, updatedAt }, { base: "https://media.example.com", lazy: true })!;
    expect(elsewhere.src).toBe("https://media.example.com/uploads/team_1a2b3c.png");
    expect(elsewhere.sources).toBeUndefined();
  });

  it("is null for an image with no usable address", () => {
    expect(imageAttributes({ ...photo, url: "javascript:alert(1)" }, { base: null, lazy: false })).toBeNull();
  });
});

describe("withBodyMedia", () => {
  it("loads the first image at once and every later one lazily; other blocks are left alone", () => {
    const paragraph = { type: "paragraph", children: [{ type: "text", text: "Hi" }] };
    const body = [
      { type: "image", image: { ...photo, url: "javascript:x" } },
      paragraph,
      { type: "image", image: photo },
      { type: "image", image: { ...photo, url: "/uploads/second.png" } },
    ];
    const result = withBodyMedia(body, null) as Array<Record<string, any>>;
    expect(result[0]?.media).toBeNull();
    expect(result[1]).toBe(paragraph);
    expect(result[2]?.media).toMatchObject({ src: "/uploads/team_1a2b3c.png", loading: "eager" });
    expect(result[3]?.media).toMatchObject({ src: "/uploads/second.png", loading: "lazy" });
    expect(body[2]).not.toHaveProperty("media");
  });

  it("after an image above the body (an article's cover, a section's): every body image is lazy, none fetched first", () => {
    const body = [{ type: "image", image: photo }];
    const [first] = withBodyMedia(body, null, 1) as Array<Record<string, any>>;
    expect(first?.media).toMatchObject({ loading: "lazy" });
    expect(first?.media).not.toHaveProperty("fetchPriority");
  });
});

describe("variantSources (the <picture>'s AVIF and WebP)", () => {
  const sourceOf = (file: MediaFile) => variantSources(file, file.url);
  const widthsOf = (srcSet: string) => srcSet.split(", ").map((candidate) => candidate.split(" ")[1]);

  it("AVIF first, then WebP, at every declared width narrower than the original, then the original's own width", () => {
    const [avif, webp] = sourceOf(photo);
    expect(avif?.type).toBe("image/avif");
    expect(webp?.type).toBe("image/webp");
    expect(avif?.srcSet.split(", ")).toEqual([
      "/uploads/_w160/team_1a2b3c.png.avif 160w",
      "/uploads/_w320/team_1a2b3c.png.avif 320w",
      "/uploads/_w480/team_1a2b3c.png.avif 480w",
      "/uploads/_w640/team_1a2b3c.png.avif 640w",
      "/uploads/_w960/team_1a2b3c.png.avif 960w",
      // Made at 1200 px (the server never enlarges), and the browser is told so.
      "/uploads/_w1280/team_1a2b3c.png.avif 1200w",
    ]);
    expect(widthsOf(webp!.srcSet)).toEqual(widthsOf(avif!.srcSet));
  });

  it("never offers more than the original has: a 960 px cover tops out at 960w, a 100 px logo has one candidate", () => {
    expect(widthsOf(sourceOf({ ...photo, width: 960 })[0]!.srcSet)).toEqual(["160w", "320w", "480w", "640w", "960w"]);
    expect(sourceOf({ ...photo, width: 100 })[0]!.srcSet).toBe("/uploads/_w160/team_1a2b3c.png.avif 100w");
    // A photo wider than the widest slot stops at 1920.
    expect(widthsOf(sourceOf({ ...photo, width: 4000 })[0]!.srcSet).at(-1)).toBe("1920w");
  });

  it("none for what sharp should not convert or the site does not serve: GIF, SVG, unknown type or width, another origin", () => {
    expect(sourceOf({ ...photo, mime: "image/gif" })).toEqual([]);
    expect(sourceOf({ ...photo, mime: "image/svg+xml" })).toEqual([]);
    expect(sourceOf({ ...photo, mime: null })).toEqual([]);
    expect(sourceOf({ ...photo, width: null })).toEqual([]);
    expect(variantSources(photo, "https://media.example.com/uploads/team_1a2b3c.png")).toEqual([]);
    expect(sourceOf({ ...photo, mime: "image/jpeg", url: "/uploads/a.jpg" })).toHaveLength(2);
  });
});
