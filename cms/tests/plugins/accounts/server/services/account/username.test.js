"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { checkUsername } = require("../../../../../../src/plugins/accounts/server/services/account/username");

test("a username is trimmed and 3 to 50 characters without control characters", () => {
  assert.deepEqual(checkUsername("  Ann Smith "), { username: "Ann Smith" });
  assert.deepEqual(checkUsername("Zoë"), { username: "Zoë" });
  for (const bad of [undefined, 42, "ab", "  ab  ", "x".repeat(51), "a\u0000bc", "ab\ncd"]) {
    assert.ok(checkUsername(bad).error, `refused: ${JSON.stringify(bad)}`);
  }
});

test("a chosen username never looks like an address (it could take someone's email)", () => {
  for (const bad of ["victim@example.com", "a@b", "@ann"]) {
    assert.equal(checkUsername(bad).error, "username must not contain @", bad);
  }
});
