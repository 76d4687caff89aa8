import { describe, expect, it } from "vitest";

import { canonicalPageUrl } from "./site-url.ts";

const config = { locales: ["en", "de"], defaultLocale: "en" };
const origin = "https://www.example.com";

describe("canonicalPageUrl", () => {
  it("gives the default locale's pages without a prefix and the others with theirs", () => {
    expect(canonicalPageUrl(origin, "/careers", "en", config)).toBe("https://www.example.com/careers");
    expect(canonicalPageUrl(origin, "/careers", "de", config)).toBe("https://www.example.com/de/careers");
    expect(canonicalPageUrl(origin, "/", "en", config)).toBe("https://www.example.com/");
    expect(canonicalPageUrl(origin, "/", "de", config)).toBe("https://www.example.com/de");
  });

  it("percent-encodes the path as the site spells it", () => {
    expect(canonicalPageUrl(origin, "/über uns", "de", config)).toBe("https://www.example.com/de/%C3%BCber%20uns");
    expect(canonicalPageUrl(origin, "/a&b", "en", config)).toBe("https://www.example.com/a&b");
  });

  it("prefixes a default-locale page whose path starts with a locale code, the only URL that reaches it", () => {
    expect(canonicalPageUrl(origin, "/de", "en", config)).toBe("https://www.example.com/en/de");
    expect(canonicalPageUrl(origin, "/de/x", "en", config)).toBe("https://www.example.com/en/de/x");
  });

  it("gives null for a locale the site does not serve or a path no URL leads back to", () => {
    expect(canonicalPageUrl(origin, "/careers", "fr", config)).toBeNull();
    expect(canonicalPageUrl(origin, "/a/../b", "en", config)).toBeNull();
    expect(canonicalPageUrl(origin, "/a/./b", "en", config)).toBeNull();
  });
});
