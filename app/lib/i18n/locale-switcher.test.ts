import { describe, expect, it } from "vitest";

import { localeLinks } from "./locale-switcher.ts";

const config = { locales: ["en", "de"], defaultLocale: "en" };
const hrefs = (links: ReturnType<typeof localeLinks>) =>
  Object.fromEntries(links.map((link) => [link.locale, link.href]));

describe("the locale switcher's targets", () => {
  it("on a translated CMS page: the same page in each locale", () => {
    const page = {
      kind: "cms" as const,
      translations: [
        { locale: "en", fullPath: "/company" },
        { locale: "de", fullPath: "/unternehmen" },
      ],
    };
    expect(hrefs(localeLinks(page, "en", config))).toEqual({ en: "/company", de: "/de/unternehmen" });
  });

  it("on a page without a translation: that locale's home page", () => {
    const page = { kind: "cms" as const, translations: [{ locale: "en", fullPath: "/jobs" }] };
    expect(hrefs(localeLinks(page, "en", config))).toEqual({ en: "/jobs", de: "/de" });
    const german = { kind: "cms" as const, translations: [{ locale: "de", fullPath: "/nur-hier" }] };
    expect(hrefs(localeLinks(german, "de", config))).toEqual({ en: "/", de: "/de/nur-hier" });
  });

  it("on the home page: each locale's home page", () => {
    const page = {
      kind: "cms" as const,
      translations: [
        { locale: "en", fullPath: "/" },
        { locale: "de", fullPath: "/" },
      ],
    };
    expect(hrefs(localeLinks(page, "de", config))).toEqual({ en: "/", de: "/de" });
  });

  it("on an auth page: the same auth page in each locale", () => {
    expect(hrefs(localeLinks({ kind: "auth", page: "signIn" }, "de", config))).toEqual({
      en: "/sign-in",
      de: "/de/sign-in",
    });
  });

  it("on an auth page opened from a mail's link: the link's query goes along (the page needs it)", () => {
    const search = "?code=a1b2c3";
    expect(hrefs(localeLinks({ kind: "auth", page: "resetPassword" }, "en", config, search))).toEqual({
      en: "/reset-password?code=a1b2c3",
      de: "/de/reset-password?code=a1b2c3",
    });
    // A CMS page's query is its own (tracking parameters...): not carried to another page.
    const page = { kind: "cms" as const, translations: [{ locale: "de", fullPath: "/unternehmen" }] };
    expect(hrefs(localeLinks(page, "en", config, "?utm_source=x"))).toEqual({ en: "/", de: "/de/unternehmen" });
  });

  it("elsewhere (a 404): each locale's home page", () => {
    expect(hrefs(localeLinks({ kind: "other" }, "en", config))).toEqual({ en: "/", de: "/de" });
  });

  it("marks the current locale and names each in its own language", () => {
    const links = localeLinks({ kind: "other" }, "de", config);
    expect(links.map(({ locale, label, current }) => ({ locale, label, current }))).toEqual([
      { locale: "en", label: "English", current: false },
      { locale: "de", label: "Deutsch", current: true },
    ]);
  });
});
