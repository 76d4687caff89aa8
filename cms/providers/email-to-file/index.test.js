"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");
const { mkdtempSync, readdirSync, readFileSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

const provider = require("./index");

test("writes one JSON file per message, names sortable by time, and logs one line", async (t) => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "mail-")), "nested");
  t.after(() => rmSync(path.dirname(dir), { recursive: true, force: true }));
  const lines = [];
  const mailer = provider.init({ dir, log: (line) => lines.push(line) }, { defaultFrom: "Acme <no-reply@acme.test>" });

  const first = await mailer.send({
    to: "ada@example.com",
    subject: "Reset password",
    text: "link",
    html: "<p>link</p>",
  });
  const second = await mailer.send({
    to: ["a@x.io", "b@x.io"],
    from: "Other <o@x.io>",
    replyTo: "r@x.io",
    subject: "Two",
  });

  const files = readdirSync(dir);
  assert.deepEqual(files, [...files].sort());
  assert.deepEqual(
    files.map((f) => path.join(dir, f)),
    [first.file, second.file],
  );
  assert.match(files[0], /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d{6}-[0-9a-f]{6}\.json$/);

  const one = JSON.parse(readFileSync(first.file, "utf8"));
  assert.deepEqual(Object.keys(one), ["to", "from", "subject", "text", "html", "sentAt"]);
  assert.equal(one.to, "ada@example.com");
  assert.equal(one.from, "Acme <no-reply@acme.test>");
  assert.equal(one.html, "<p>link</p>");
  assert.ok(Math.abs(Date.parse(one.sentAt) - Date.now()) < 5000);

  const two = JSON.parse(readFileSync(second.file, "utf8"));
  assert.equal(two.to, "a@x.io, b@x.io");
  assert.equal(two.from, "Other <o@x.io>");
  assert.equal(two.replyTo, "r@x.io");
  assert.equal(two.text, "");

  assert.deepEqual(lines, [
    `[mail] to=ada@example.com subject=Reset password file=${first.file}`,
    `[mail] to=a@x.io, b@x.io subject=Two file=${second.file}`,
  ]);
});

test("refuses to start without a directory", () => {
  assert.throws(() => provider.init({}, {}), /providerOptions\.dir/);
});
