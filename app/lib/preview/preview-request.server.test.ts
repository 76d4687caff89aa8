import { describe, expect, it } from "vitest";

import { exitLocation, readPreviewRequest } from "./preview-request.server.ts";

const SECRET = "preview-secret-0123456789";
const config = { locales: ["en", "de"], defaultLocale: "en" };
const read = (query: Record<string, string>) => readPreviewRequest(new URLSearchParams(query), SECRET, config);

describe("GET /api/preview's query", () => {
  it("leads to the page, with the locale's prefix unless it is the default locale", () => {
    expect(read({ secret: SECRET, path: "/company", locale: "en", status: "draft" })).toEqual({
      ok: true,
      enter: true,
      location: "/company",
    });
    expect(read({ secret: SECRET, path: "/", locale: "de" })).toEqual({ ok: true, enter: true, location: "/de" });
    expect(read({ secret: SECRET, path: "/company/careers", locale: "de", status: "published" })).toEqual({
      ok: true,
      enter: false,
      location: "/de/company/careers",
    });
    expect(read({ secret: SECRET, path: "/company?x=1#top" })).toMatchObject({ location: "/company" });
  });

  it("answers 401 for a wrong or missing secret, before looking at anything else", () => {
    for (const secret of [undefined, "", "preview-secret-012345678", `${SECRET}x`]) {
      const query: Record<string, string> = { path: "//evil.example", locale: "xx" };
      if (secret !== undefined) query.secret = secret;
      expect(read(query)).toMatchObject({ ok: false, status: 401, message: expect.stringMatching(/preview secret/) });
    }
  });

  it("answers 503 when the site has no preview secret", () => {
    const asked = readPreviewRequest(new URLSearchParams({ secret: "", path: "/" }), undefined, config);
    expect(asked).toMatchObject({ ok: false, status: 503 });
  });

  it.each([
    ["https://evil.example/x"],
    ["//evil.example"],
    ["evil.example"],
    ["javascript:alert(1)"],
    ["/%zz"],
    ["/a%2Fb"],
    ["/\tx"],
    ["/api/cms-revalidate"],
    ["/de/company"],
    ["/a/../company"],
    ["/company/"],
    [`/${"a".repeat(3000)}`],
  ])("answers 400 for the path %s", (path) => {
    expect(read({ secret: SECRET, path })).toMatchObject({ ok: false, status: 400 });
  });

  it("answers 400 without a path or with an unknown status, 404 for a locale the site does not serve", () => {
    expect(read({ secret: SECRET })).toMatchObject({ ok: false, status: 400 });
    expect(read({ secret: SECRET, path: "/", status: "preview" })).toMatchObject({ ok: false, status: 400 });
    expect(read({ secret: SECRET, path: "/", locale: "fr" })).toMatchObject({
      ok: false,
      status: 404,
      message: expect.stringContaining("en, de"),
    });
  });

  it("takes a page's path as the CMS writes it (fullPath: canonical, percent-encoded as browsers do)", () => {
    expect(read({ secret: SECRET, path: "/caf%C3%A9" })).toMatchObject({ ok: true, location: "/caf%C3%A9" });
    expect(read({ secret: SECRET, path: "/café" })).toMatchObject({ ok: true, location: "/caf%C3%A9" });
  });
});

describe("GET /api/preview/exit's path", () => {
  it.each([
    ["/company", "/company"],
    ["/de/company?x=1", "/de/company"],
    ["//evil.example", "/evil.example"],
    ["https://evil.example", "/"],
    ["", "/"],
  ])("%s leads to %s", (path, location) => {
    expect(exitLocation(new URLSearchParams(path ? { path } : {}))).toBe(location);
  });
});
