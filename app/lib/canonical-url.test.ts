import type { RouteConfigEntry } from "@react-router/dev/routes";
import fc from "fast-check";
import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";

import routes from "../routes.ts";
import { AUTH_PAGE_PATHS, isAuthPagePath } from "./auth/paths.ts";
import { canonicalPath, routeLetterCase } from "./canonical-url.ts";

describe("canonicalPath", () => {
  it.each([
    ["/company", "/company"],
    ["/", "/"],
    ["", "/"],
    ["//company", "/company"],
    ["/%63ompany", "/company"],
    ["/en//company", "/en/company"],
    ["/company/", "/company"],
    ["/company///", "/company"],
    ["/x/../company", "/company"],
    ["/./company/.", "/company"],
    ["/%2e%2e/company", "/company"],
    ["/..", "/"],
    ["//evil.com/", "/evil.com"],
    ["/\\evil.com", "/evil.com"],
    ["\\\\evil.com", "/evil.com"],
    ["/caf%c3%a9", "/caf%C3%A9"],
    ["/café", "/caf%C3%A9"],
    ["/a%20b", "/a%20b"],
    ["/a b", "/a%20b"],
    ["/a:b@c,d;e=f+g$h&i", "/a:b@c,d;e=f+g$h&i"],
    ["/_.data", "/_.data"],
    ["/company/_.data", "/company/_.data"],
  ])("%s becomes %s", (raw, expected) => {
    expect(canonicalPath(raw)).toEqual({ ok: true, path: expected });
  });

  it.each(["/%", "/%zz", "/%ff", "/a%2fb", "/a%5cb", "/a%00b", "/a%0d%0ab"])("%s has no canonical form", (raw) => {
    expect(canonicalPath(raw).ok).toBe(false);
  });

  it("is idempotent, and never starts with two slashes or a backslash", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("/", "\\", ".", "%2e", "%2F", "%5C", "a", "é", "%", "%41", " ") }),
        (raw) => {
          const once = canonicalPath(raw);
          if (!once.ok) return;
          expect(once.path).toMatch(/^\/(?![/\\])/);
          expect(canonicalPath(once.path)).toEqual(once);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

/** The site's routes (app/routes.ts), as full paths and as React Router's matcher sees them. */
const flat = (entries: RouteConfigEntry[], parent = ""): Array<{ id: string; path: string }> =>
  entries.flatMap((entry) => {
    const path = [parent, entry.path ?? ""].filter(Boolean).join("/");
    return [{ id: entry.id ?? entry.file, path }, ...flat(entry.children ?? [], path)];
  });
const sitePaths = flat(routes).map((route) => route.path);
const letterCase = routeLetterCase(sitePaths);
const canonical = (raw: string) => {
  const result = canonicalPath(raw, letterCase);
  if (!result.ok) throw new Error(`${raw}: ${result.reason}`);
  return result.path;
};
const tree = (entries: RouteConfigEntry[], caseSensitive: boolean): RouteObject[] =>
  entries.map((entry) =>
    entry.index
      ? { id: entry.id ?? entry.file, index: true }
      : {
          id: entry.id ?? entry.file,
          path: entry.path,
          caseSensitive,
          children: tree(entry.children ?? [], caseSensitive),
        },
  );
const trees = { anyCase: tree(routes, false), exact: tree(routes, true) };
/** The route React Router renders for a path, matching in any case (as it does) or exactly (as the checks do). */
function routeFor(path: string, match: keyof typeof trees): string | undefined {
  // As React Router reads a `.data` request: the page it is for.
  const page = path
    .replace(/\/_\.data$/, "/")
    .replace(/\.data$/, "")
    .replace(/(.)\/$/, "$1");
  return matchRoutes(trees[match], page)?.at(-1)?.route.id;
}
/** `sign-in` → `SIGN-IN`, `Sign-In`, `sIgN-iN`. */
const spellings = (path: string) => [
  path.toUpperCase(),
  path.replace(/(^|[/-])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase()),
  [...path].map((char, index) => (index % 2 ? char.toUpperCase() : char)).join(""),
];

describe("the letter case of the site's routes", () => {
  it("every auth page in mixed case, with .data and under a locale, becomes its one spelling", () => {
    for (const page of AUTH_PAGE_PATHS) {
      for (const spelling of spellings(page)) {
        expect(canonical(spelling), spelling).toBe(page);
        expect(canonical(`${spelling}.data`), spelling).toBe(`${page}.data`);
        expect(canonical(`/de${spelling}`), spelling).toBe(`/de${page}`);
        expect(canonical(`/de${spelling}.data`), spelling).toBe(`/de${page}.data`);
        expect(canonical(`${spelling}/.data`), spelling).toBe(`${page}/.data`);
        // The locale segment is a parameter: it keeps its case (`/DE/...` is no locale, a 404).
        expect(canonical(`/DE${spelling}`), spelling).toBe(`/DE${page}`);
        expect(isAuthPagePath(canonical(`/DE${spelling}`)), spelling).toBe(true);
      }
    }
  });

  it.each([
    ["/API/Auth/Callback/GitHub", "/api/auth/Callback/GitHub"],
    ["/Api/Cms-Proxy/users/Me", "/api/cms-proxy/users/Me"],
    ["/API/PREVIEW", "/api/preview"],
    ["/api/Preview/Exit", "/api/preview/exit"],
    ["/Sitemap.XML", "/sitemap.xml"],
    ["/SITEMAP/1.XML", "/sitemap/1.XML"],
    ["/Robots.txt", "/robots.txt"],
    ["/Uploads/Photo_A1.JPG", "/uploads/Photo_A1.JPG"],
    ["/UPLOADS", "/uploads"],
  ])("%s becomes %s: the route's own segments only, never its parameters", (raw, expected) => {
    expect(canonical(raw)).toBe(expected);
  });

  it.each([
    "/About",
    "/Team/People",
    "/de/About",
    "/Sign-In/x",
    "/a/b/Sign-In",
    "/Account-x",
    "/_.data",
    "/Company.data",
  ])("%s is a CMS address and keeps its case (slugs may carry capitals)", (raw) => {
    expect(canonical(raw)).toBe(raw);
  });

  it("on a canonical path, React Router's match in any case is the exact match the checks make", () => {
    const segment = fc.oneof(
      fc.constantFrom(...sitePaths.flatMap((path) => path.split("/")).filter((part) => /^[a-z]/.test(part))),
      fc.constantFrom("de", "en", "x", "company", "Photo.JPG", "1.xml"),
    );
    const mixedCase = fc
      .tuple(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
      )
      .map(([segments, upper]) =>
        [...`/${segments.join("/")}`].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(""),
      );
    fc.assert(
      fc.property(mixedCase, fc.constantFrom("", ".data"), (raw, suffix) => {
        const path = canonical(raw + suffix);
        // The same route as the spelling asked for, and on it no other letter case matters.
        expect(routeFor(path, "anyCase"), path).toBe(routeFor(raw + suffix, "anyCase"));
        expect(routeFor(path, "exact"), path).toBe(routeFor(path, "anyCase"));
        expect(canonical(path), path).toBe(path);
      }),
      { numRuns: 1_000 },
    );
  });

  it("is idempotent under any letter case", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("/", "\\", ".", "%2e", "a", "A", "s", "S", "%41", "ign-in", "IGN-IN", ".data"),
        }),
        (raw) => {
          const once = canonicalPath(raw, letterCase);
          if (!once.ok) return;
          expect(canonicalPath(once.path, letterCase)).toEqual(once);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
