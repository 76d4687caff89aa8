import { describe, expect, it } from "vitest";

import { memoryLog } from "../../../tests/support/memory-log.ts";
import { cmsLinkSchema, navEntrySchema, resolveCmsLink, resolveNavEntries } from "./links.server.ts";

// Links by reference (docs/links.md, decision 0041): what the site renders for a CMS link.

const config = { locales: ["en", "de"], defaultLocale: "en" };
const log = memoryLog();
const link = (fields: Record<string, unknown>) => cmsLinkSchema.parse({ label: "L", ...fields });

describe("resolveCmsLink", () => {
  it("a page or an article by reference: its current path, in the target version's locale", () => {
    expect(resolveCmsLink(link({ page: { fullPath: "/about", locale: "en" } }), "en", config, log)).toEqual({
      label: "L",
      href: "/about",
      kind: "internal",
    });
    expect(resolveCmsLink(link({ page: { fullPath: "/", locale: "de" } }), "de", config, log)?.href).toBe("/de");
    expect(resolveCmsLink(link({ article: { slug: "buero-berlin", locale: "de" } }), "de", config, log)?.href).toBe(
      "/de/blog/buero-berlin",
    );
    // An editor who linked another locale's version from a German page: that version's address.
    expect(resolveCmsLink(link({ page: { fullPath: "/jobs", locale: "en" } }), "de", config, log)?.href).toBe("/jobs");
  });

  it("a reference wins over a typed URL, which stands in when the target is gone", () => {
    const both = { url: "https://example.com", page: { fullPath: "/about", locale: "en" } };
    expect(resolveCmsLink(link(both), "en", config, log)?.href).toBe("/about");
    expect(resolveCmsLink(link({ url: "https://example.com", page: null }), "en", config, log)?.kind).toBe("external");
  });

  it("a target that is gone and no URL: no link (left out, never a 404)", () => {
    expect(resolveCmsLink(link({ page: null, article: null }), "en", config, log)).toBeNull();
    expect(resolveCmsLink(link({ url: "  " }), "en", config, log)).toBeNull();
  });

  it("a target's path is canonicalised like a typed one: it stays on this site", () => {
    expect(resolveCmsLink(link({ page: { fullPath: "//evil.example", locale: "en" } }), "en", config, log)?.href).toBe(
      "/evil.example",
    );
  });
});

describe("resolveNavEntries", () => {
  const entry = (fields: Record<string, unknown>) => navEntrySchema.parse({ label: "E", ...fields });

  it("an entry with child links keeps the ones that resolve; one with nothing left is left out", () => {
    const entries = [
      entry({ page: { fullPath: "/company", locale: "en" } }),
      entry({
        children: [
          { label: "C", page: { fullPath: "/jobs", locale: "en" } },
          { label: "Gone", page: null },
        ],
      }),
      entry({ page: null, children: [{ label: "Gone", page: null }] }),
    ];
    expect(resolveNavEntries(entries, "en", config, log)).toEqual([
      { label: "E", href: "/company", kind: "internal", children: [] },
      { label: "E", href: null, kind: "internal", children: [{ label: "C", href: "/jobs", kind: "internal" }] },
    ]);
  });
});

describe("navbar and footer links get the sections' checks", () => {
  it("a typed `javascript:` or `data:` address in the navbar is left out, a child's too", () => {
    const entries = [
      navEntrySchema.parse({ label: "Bad", url: "javascript:alert(1)" }),
      navEntrySchema.parse({ label: "Menu", children: [{ label: "Bad", url: "data:text/html,<p>x</p>" }] }),
    ];
    expect(resolveNavEntries(entries, "en", config, log)).toEqual([]);
  });
});
