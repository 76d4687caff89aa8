"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const createUploadsSandbox = require("../../src/middlewares/uploads-sandbox");

/** A Koa context stand-in: the path, the answer's type, the headers set. */
function run(path, type) {
  const headers = {};
  const ctx = { path, response: { type }, set: (name, value) => (headers[name.toLowerCase()] = value) };
  return createUploadsSandbox()(ctx, async () => {}).then(() => headers);
}

test("an upload is sandboxed and never sniffed; anything but a medium or a PDF is an attachment", async () => {
  for (const type of ["image/png", "video/mp4", "audio/ogg", "application/pdf"]) {
    const headers = await run("/uploads/x", type);
    assert.match(headers["content-security-policy"], /^default-src 'none';.*; sandbox$/);
    assert.equal(headers["x-content-type-options"], "nosniff");
    assert.equal(headers["content-disposition"], undefined, type);
  }
  for (const type of ["text/html", "image/svg+xml", "application/javascript", "application/octet-stream", ""]) {
    assert.equal((await run("/uploads/x", type))["content-disposition"], "attachment", type);
  }
});

test("every spelling of /uploads/ is covered; other paths are left alone", async () => {
  for (const path of [
    "/uploads/x.html",
    "/UPLOADS/x.html",
    "/uploads%2Fx.html",
    "//uploads/x.html",
    "/uploads%5Cx.html",
  ]) {
    assert.equal((await run(path, "text/html"))["content-disposition"], "attachment", path);
  }
  for (const path of ["/admin", "/api/pages", "/favicon.png", "/uploadsx"]) {
    assert.deepEqual(await run(path, "text/html"), {}, path);
  }
});
