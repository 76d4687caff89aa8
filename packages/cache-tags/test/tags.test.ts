import { createRequire } from "node:module";

import { describe, expect, it } from "vitest";

import * as tags from "../index.js";

describe("@cms-site/cache-tags", () => {
  it("spells each tag the way the site records it and the CMS sends it", () => {
    const uid = "api::article.article";
    expect(tags.typeTag(uid)).toBe("cms:api::article.article");
    expect(tags.documentTag(uid, "d1")).toBe("cms:api::article.article:d1");
    expect(tags.listTag(uid, "en")).toBe("cms:api::article.article:list:en");
    expect(tags.listTag(uid, undefined)).toBe("cms:api::article.article:list:*");
    expect(tags.listTag(uid, "de", { attribute: "category", documentId: "c1" })).toBe(
      "cms:api::article.article:list:de:category=c1",
    );
    expect(tags.neighboursTag(uid, "en", "d1")).toBe("cms:api::article.article:neighbours:en:d1");
    expect(tags.fieldTag(uid, null, "category")).toBe("cms:api::article.article:field:*:category");
    expect(tags.pathTag("/blog/hello")).toBe("path:/blog/hello");
  });

  it("tells a document's tag from a type's, a list's, neighbours' and a field's", () => {
    const uid = "api::page.page";
    expect(tags.isDocumentTag(tags.documentTag(uid, "abc"))).toBe(true);
    for (const other of [
      tags.typeTag(uid),
      tags.listTag(uid, "en"),
      tags.neighboursTag(uid, "en", "abc"),
      tags.fieldTag(uid, "en", "slug"),
      tags.pathTag("/x"),
    ]) {
      expect(tags.isDocumentTag(other), other).toBe(false);
    }
  });

  it("holds the limits both halves enforce, and refuses what is not a tag", () => {
    expect(tags.MAX_TAGS).toBe(1000);
    expect(tags.MAX_PURGE_PATHS * 2).toBeLessThanOrEqual(tags.MAX_TAGS);
    expect(tags.isValidTag("cms:api::page.page:abc")).toBe(true);
    for (const bad of ["", "a b", "a,b", "x".repeat(tags.MAX_TAG_LENGTH + 1), 42]) {
      expect(tags.isValidTag(bad)).toBe(false);
    }
  });

  it("loads with require() as the CMS's CommonJS plugin loads it", () => {
    const required = createRequire(import.meta.url)("@cms-site/cache-tags") as typeof tags;
    expect(required.documentTag("api::page.page", "x")).toBe(tags.documentTag("api::page.page", "x"));
  });
});
