import { describe, expect, it } from "vitest";

import { localePrefixedPath, localizedPath, parseLocalePath, withDefaultLocaleVariants } from "./locale-path.ts";

const config = { locales: ["en", "de"], defaultLocale: "en" };

describe("locale paths", () => {
  it.each([
    ["/", { locale: "en", fullPath: "/", prefixed: false }],
    ["/en", { locale: "en", fullPath: "/", prefixed: true }],
    ["/en/", { locale: "en", fullPath: "/", prefixed: true }],
    ["/careers", { locale: "en", fullPath: "/careers", prefixed: false }],
    ["/en/careers", { locale: "en", fullPath: "/careers", prefixed: true }],
    ["/de/careers", { locale: "de", fullPath: "/careers", prefixed: true }],
    ["/de", { locale: "de", fullPath: "/", prefixed: true }],
    ["/company/careers/engineering", { locale: "en", fullPath: "/company/careers/engineering", prefixed: false }],
    ["/fr/careers", { locale: "en", fullPath: "/fr/careers", prefixed: false }],
    ["/caf%C3%A9", { locale: "en", fullPath: "/café", prefixed: false }],
    ["//company//careers", { locale: "en", fullPath: "/company/careers", prefixed: false }],
  ])("reads %s", (pathname, expected) => {
    expect(parseLocalePath(pathname, config)).toEqual(expected);
  });

  it.each(["/%E0%A4%A", "/a%2Fb", "/a%5Cb", "/%2e%2e/secret", "/a/%00"])(
    "refuses %s, which no page can have",
    (pathname) => {
      expect(parseLocalePath(pathname, config)).toBeNull();
    },
  );

  it("builds canonical URLs: the default locale unprefixed, others prefixed", () => {
    expect(localizedPath("/careers", "en", config)).toBe("/careers");
    expect(localizedPath("/", "en", config)).toBe("/");
    expect(localizedPath("/careers", "de", config)).toBe("/de/careers");
    expect(localizedPath("/", "de", config)).toBe("/de");
  });

  it("builds the locale-prefixed form that redirect sources use", () => {
    expect(localePrefixedPath("/old-careers", "en")).toBe("/en/old-careers");
    expect(localePrefixedPath("/", "de")).toBe("/de");
  });
});

describe("default-locale variants for revalidation", () => {
  it.each([
    ["/careers", ["/en/careers", "/careers"]],
    ["/", ["/en", "/"]],
    ["/jobs/*", ["/en/jobs/*", "/jobs/*"]],
    ["/*", ["/*"]],
    ["/en/careers", ["/en/careers", "/careers"]],
    ["/en", ["/en", "/"]],
    ["/en/jobs/*", ["/en/jobs/*", "/jobs/*"]],
    ["/de/careers", ["/de/careers"]],
    ["/english-courses", ["/en/english-courses", "/english-courses"]],
  ])("%s → %j", (path, expected) => {
    expect(withDefaultLocaleVariants(path, config)).toEqual(expected);
  });
});
