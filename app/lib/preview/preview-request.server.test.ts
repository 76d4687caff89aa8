import { describe, expect, it } from "vitest";

import { signPreviewLink } from "./preview-link.server.ts";
import { exitLocation, readPreviewRequest } from "./preview-request.server.ts";

const SECRET = "preview-secret-0123456789";
const NOW = Date.UTC(2026, 10, 28, 12);
const config = { locales: ["en", "de"], defaultLocale: "en" };
type Asked = { path?: string; locale?: string; status?: string; type?: string; document?: string };

/** A link the CMS would make for these fields (expiring in 10 minutes), as read at NOW. */
function signed(asked: Asked, { secret = SECRET, expiresAt = NOW + 10 * 60_000 } = {}) {
  const fields = { type: "api::page.page", document: "doc-a", path: "", locale: "", status: "", ...asked };
  return signPreviewLink(secret, fields, expiresAt);
}
const readAt = (params: URLSearchParams, nowMs = NOW) => readPreviewRequest(params, SECRET, config, nowMs);
const read = (asked: Asked) => readAt(signed(asked));

describe("GET /api/preview's signed link", () => {
  it("leads to the page, with the locale's prefix unless it is the default locale", () => {
    expect(read({ path: "/company", locale: "en", status: "draft" })).toMatchObject({
      ok: true,
      enter: true,
      location: "/company",
    });
    expect(read({ path: "/", locale: "de" })).toMatchObject({ ok: true, enter: true, location: "/de" });
    expect(read({ path: "/company/careers", locale: "de", status: "published" })).toMatchObject({
      ok: true,
      enter: false,
      location: "/de/company/careers",
    });
    expect(read({ path: "/company?x=1#top" })).toMatchObject({ location: "/company" });
  });

  it("answers 401 for a missing, forged or altered signature, before looking at anything else", () => {
    const link = signed({ path: "/company", locale: "en", status: "draft" });
    const altered = (name: string, value: string) => {
      const copy = new URLSearchParams(link);
      copy.set(name, value);
      return copy;
    };
    const unsigned = new URLSearchParams({ path: "//evil.example", locale: "xx" });
    for (const params of [
      unsigned,
      altered(
        "signature",
        link.get("signature")!.replace(/^./, (c) => (c === "A" ? "B" : "A")),
      ),
      altered("path", "/other"),
      altered("document", "doc-b"),
      altered("type", "api::article.article"),
      altered("locale", "de"),
      altered("status", "published"),
      altered("expires", String(NOW + 50 * 60_000)),
      signed({ path: "/company" }, { secret: "another-secret-0123456789" }),
    ]) {
      expect(readAt(params)).toMatchObject({ ok: false, status: 401, message: expect.stringMatching(/preview link/) });
    }
  });

  it("answers 401 for a link with the secret in it (an older CMS), telling the editor what to do", () => {
    const asked = readAt(new URLSearchParams({ secret: SECRET, path: "/" }));
    expect(asked).toMatchObject({
      ok: false,
      status: 401,
      message: expect.stringMatching(/no longer carry the secret/),
    });
  });

  it("answers 410 for a genuine link past its expiry, and 401 for one that lasts longer than a preview", () => {
    const link = signed({ path: "/company" });
    expect(readAt(link, NOW + 10 * 60_000 - 1)).toMatchObject({ ok: true });
    expect(readAt(link, NOW + 10 * 60_000)).toMatchObject({ ok: false, status: 410, message: /has expired/ });
    expect(readAt(signed({ path: "/company" }, { expiresAt: NOW + 61 * 60_000 }))).toMatchObject({ status: 401 });
  });

  it("answers 503 when the site has no preview secret", () => {
    const asked = readPreviewRequest(signed({ path: "/" }), undefined, config, NOW);
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
    [`/${"a".repeat(2100)}`],
  ])("answers 400 for the path %s", (path) => {
    expect(read({ path })).toMatchObject({ ok: false, status: 400 });
  });

  it("answers 400 without a path or with an unknown status, 404 for a locale the site does not serve", () => {
    expect(read({})).toMatchObject({ ok: false, status: 400 });
    expect(read({ path: "/", status: "preview" })).toMatchObject({ ok: false, status: 400 });
    expect(read({ path: "/", locale: "fr" })).toMatchObject({
      ok: false,
      status: 404,
      message: expect.stringContaining("en, de"),
    });
  });

  it("takes a page's path as the CMS writes it (fullPath: canonical, percent-encoded as browsers do)", () => {
    expect(read({ path: "/caf%C3%A9" })).toMatchObject({ ok: true, location: "/caf%C3%A9" });
    expect(read({ path: "/café" })).toMatchObject({ ok: true, location: "/caf%C3%A9" });
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
