"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  EMAIL_CHANGE_TTL_MS,
  checkNewEmail,
  checkToken,
  checkLocale,
  newToken,
  hashToken,
  pendingState,
  confirmLink,
  emailChangeMails,
} = require("../../../../../../src/plugins/accounts/server/services/account/email-change");

test("the new address is trimmed and lower-cased; anything else than an address is refused", () => {
  assert.deepEqual(checkNewEmail("  New@Example.COM "), { email: "new@example.com" });
  for (const bad of [undefined, null, 42, "", "no-at-sign", "a@b", "two@@example.com", "sp ace@example.com"]) {
    assert.ok(checkNewEmail(bad).error, String(bad));
  }
  assert.ok(checkNewEmail(`${"a".repeat(250)}@example.com`).error);
});

test("a token is 64 hex characters; only its SHA-256 is stored", () => {
  const { token, tokenHash } = newToken();
  assert.match(token, /^[0-9a-f]{64}$/);
  assert.equal(tokenHash, hashToken(token));
  assert.notEqual(tokenHash, token);
  assert.notEqual(newToken().token, token);
  assert.equal(checkToken(token), token);
  for (const bad of [undefined, "", token.toUpperCase(), `${token}0`, token.slice(1), { token }]) {
    assert.equal(checkToken(bad), null);
  }
});

test("a pending change works for an hour", () => {
  const now = 1_000_000_000;
  assert.equal(pendingState(new Date(now + EMAIL_CHANGE_TTL_MS).toISOString(), now), "ok");
  assert.equal(pendingState(new Date(now + EMAIL_CHANGE_TTL_MS), now + EMAIL_CHANGE_TTL_MS), "expired");
  assert.equal(pendingState(null, now), "expired");
  assert.equal(pendingState("not a date", now), "expired");
  assert.equal(EMAIL_CHANGE_TTL_MS, 60 * 60 * 1000);
});

test("the link goes to the site's page, under the locale's prefix when one is given", () => {
  assert.equal(
    confirmLink("https://www.example.com", "ab", null),
    "https://www.example.com/confirm-email-change?token=ab",
  );
  assert.equal(
    confirmLink("https://x.test/base", "ab", checkLocale("de")),
    "https://x.test/base/de/confirm-email-change?token=ab",
  );
  for (const bad of ["../x", "de/../..", "", 5, "DE!"]) assert.equal(checkLocale(bad), null);
});

test("the mails: the link to the new address only when it is free; the old address told either way, without a link", () => {
  const base = { siteName: "Acme", clientUrl: "https://x.test", oldEmail: "old@x.test", newEmail: "new@x.test" };
  const link = "https://x.test/confirm-email-change?token=abc";
  const [toOld, toNew] = emailChangeMails({ ...base, link, taken: false });
  assert.equal(toOld.to, "old@x.test");
  assert.ok(!toOld.text.includes("token="));
  assert.match(toOld.text, /new@x\.test/);
  assert.equal(toNew.to, "new@x.test");
  assert.ok(toNew.text.includes(link));
  assert.ok(toNew.html.includes(link));

  const [takenOld, takenNew] = emailChangeMails({ ...base, link: null, taken: true });
  assert.equal(takenOld.text, toOld.text);
  assert.equal(takenNew.to, "new@x.test");
  assert.ok(!takenNew.text.includes("token="));
  assert.match(takenNew.text, /already belongs to an account/);
  // Addresses are escaped in the html part.
  const [, html] = emailChangeMails({ ...base, newEmail: "<b>@x.test", link: "l", taken: false });
  assert.ok(!html.html.includes("<b>"));
});
