"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

const { ACCEPTED_TYPES, REFUSED_TYPES, isAcceptedType, refusalOf } = require("../../src/uploads/upload-policy");

test("images, video, audio and PDF are accepted; SVG, HTML, script, XML and text are not", () => {
  for (const type of ["image/png", "image/jpeg", "image/webp", "video/mp4", "audio/mpeg", "application/pdf"]) {
    assert.equal(isAcceptedType(type), true, type);
  }
  for (const type of [
    "image/svg+xml",
    "text/html",
    "application/xhtml+xml",
    "text/javascript",
    "application/javascript",
    "application/xml",
    "text/plain",
    "application/zip",
    undefined,
  ]) {
    assert.equal(isAcceptedType(type), false, String(type));
  }
});

test("Strapi's patterns stay valid regular expressions for it (it does not escape them)", () => {
  for (const pattern of [...ACCEPTED_TYPES, ...REFUSED_TYPES]) {
    assert.doesNotThrow(() => new RegExp(`^${pattern.replace(/\*/g, ".*")}$`), pattern);
  }
});

test("a file is judged by its content, not its name: HTML named x.png is refused, a PNG is not", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "upload-policy-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const html = path.join(dir, "a");
  writeFileSync(html, "\uFEFF  <!doctype html><script>alert(1)</script>");
  const refusal = await refusalOf({ filepath: html, originalFilename: "x.png" });
  assert.match(refusal, /^“x\.png” was not uploaded: its content is not a recognised image/);
  const png = path.join(dir, "b");
  writeFileSync(png, readFileSync(path.join(__dirname, "..", "..", "src", "seed", "share-image.png")));
  assert.equal(await refusalOf({ filepath: png, originalFilename: "x.png" }), null);
});
