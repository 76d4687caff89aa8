import { describe, expect, it } from "vitest";

import {
  hasVersion,
  offeredWidths,
  parseVariantRequest,
  VARIANT_WIDTHS,
  variantPath,
  versionOf,
  withVersion,
} from "./image-variants.ts";

const parse = (target: string) => parseVariantRequest(new URL(target, "http://site.test"));

describe("variant addresses", () => {
  it("the variant of an upload path keeps its name and adds width and format, and reads back as such", () => {
    const path = variantPath("/uploads/acme_1a2b.png", 640, "avif");
    expect(path).toBe("/uploads/_w640/acme_1a2b.png.avif");
    expect(parse(withVersion(path, "mfq3k2x1"))).toEqual({
      kind: "variant",
      uploadPath: "/uploads/acme_1a2b.png",
      width: 640,
      format: "avif",
      version: "mfq3k2x1",
    });
    expect(parse("/uploads/_w160/a.jpg.webp")).toMatchObject({ kind: "variant", format: "webp", version: null });
  });

  it("originals are not variant requests: the proxy answers them", () => {
    for (const target of ["/uploads/a.png", "/uploads/a.png?v=abc", "/uploads/_x/a.png", "/uploads/w640/a.png.avif"]) {
      expect(parse(target), target).toBeNull();
    }
  });

  it("only declared widths: any other (or another spelling of one) is refused, naming the widths", () => {
    for (const width of ["641", "0640", "10000", "", "640px", "-640", "6.4e2"]) {
      const answer = parse(`/uploads/_w${width}/a.png.avif`);
      expect(answer, width).toEqual({ kind: "refused", reason: expect.stringContaining(VARIANT_WIDTHS.join(", ")) });
    }
  });

  it("only declared formats, with a name before them", () => {
    for (const target of [
      "/uploads/_w640/a.png.jxl",
      "/uploads/_w640/a.png",
      "/uploads/_w640/.avif",
      "/uploads/_w640/a.png.AVIF",
    ]) {
      expect(parse(target), target).toMatchObject({ kind: "refused", reason: expect.stringContaining("avif, webp") });
    }
  });

  it("one query parameter only, v, well formed: anything else is refused (no cache entry per stranger's string)", () => {
    for (const query of ["?w=640", "?v=abc&x=1", "?v=abc&v=def", "?v=", "?v=ABC", "?v=a%20b", "?utm_source=x"]) {
      expect(parse(`/uploads/_w640/a.png.avif${query}`), query).toMatchObject({ kind: "refused" });
    }
  });

  it("a version is a file's updatedAt in base 36 ms; none for a missing or unreadable date", () => {
    expect(versionOf("2026-11-28T09:28:08.942Z")).toBe(Date.parse("2026-11-28T09:28:08.942Z").toString(36));
    expect(versionOf(null)).toBeNull();
    expect(versionOf("yesterday")).toBeNull();
    expect(withVersion("/uploads/a.png", null)).toBe("/uploads/a.png");
    expect(hasVersion(new URL("http://s/uploads/a.png?v=mfq3k2x1"))).toBe(true);
    expect(hasVersion(new URL("http://s/uploads/a.png?v=%3Cscript"))).toBe(false);
    expect(hasVersion(new URL("http://s/uploads/a.png"))).toBe(false);
  });

  it("offered widths: the declared ones below the original, then the first that reaches it, at the original's width", () => {
    expect(offeredWidths(640)).toEqual([
      { width: 160, actual: 160 },
      { width: 320, actual: 320 },
      { width: 480, actual: 480 },
      { width: 640, actual: 640 },
    ]);
    expect(offeredWidths(700).at(-1)).toEqual({ width: 960, actual: 700 });
    expect(offeredWidths(5000).map(({ width }) => width)).toEqual([...VARIANT_WIDTHS]);
  });
});
