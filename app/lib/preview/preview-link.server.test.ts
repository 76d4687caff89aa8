import { describe, expect, it } from "vitest";

import { checkPreviewLink, signPreviewLink } from "./preview-link.server.ts";

const SECRET = "preview-secret-0123456789";
/** A link cms/src/preview/signed-link.js made (cms/tests/preview/preview.test.js checks the same vector). */
const FROM_THE_CMS =
  "type=api%3A%3Apage.page&document=d1&path=%2Fcompany&locale=de&status=draft&expires=1800000600000" +
  "&signature=2n7sYY05Cjiii3Q0YLvdVNXmFr_cvVnipXZIfKGrLpE";
const MADE_AT = 1_800_000_000_000;

describe("preview links", () => {
  it("the site accepts the CMS's link, for what it was made for, until it expires", () => {
    const params = new URLSearchParams(FROM_THE_CMS);
    expect(checkPreviewLink(params, SECRET, MADE_AT)).toEqual({
      ok: true,
      fields: { type: "api::page.page", document: "d1", path: "/company", locale: "de", status: "draft" },
    });
    expect(checkPreviewLink(params, SECRET, MADE_AT + 10 * 60_000 - 1).ok).toBe(true);
    expect(checkPreviewLink(params, SECRET, MADE_AT + 10 * 60_000)).toMatchObject({ ok: false, status: 410 });
  });

  it("signs the same way the CMS does", () => {
    const fields = { type: "api::page.page", document: "d1", path: "/company", locale: "de", status: "draft" };
    expect(signPreviewLink(SECRET, fields, MADE_AT + 10 * 60_000).toString()).toBe(FROM_THE_CMS);
  });

  it("refuses a malformed expiry or signature as unsigned", () => {
    for (const [name, value] of [
      ["expires", "0x1"],
      ["expires", "01800000600000"],
      ["expires", "1e13"],
      ["expires", "99999999999999999"],
      ["signature", ""],
      ["signature", "2n7sYY05Cjiii3Q0YLvdVNXmFr_cvVnipXZIfKGrLpF"],
    ]) {
      const params = new URLSearchParams(FROM_THE_CMS);
      params.set(name!, value!);
      expect(checkPreviewLink(params, SECRET, MADE_AT), `${name}=${value}`).toMatchObject({ ok: false, status: 401 });
    }
  });
});
