"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { checkAdminToken } = require("../../src/revalidation/admin-token");

function deps({
  valid = true,
  active = true,
  user = { id: 1, email: "a@x", isActive: true, blocked: false },
  throws = false,
} = {}) {
  const seen = {};
  return {
    seen,
    sessionManager: (origin) => {
      seen.origin = origin;
      return {
        validateAccessToken(token) {
          if (throws) throw new Error("boom");
          seen.token = token;
          return valid
            ? { isValid: true, payload: { userId: "1", sessionId: "sess", type: "access" } }
            : { isValid: false, payload: null };
        },
        async isSessionActive(id) {
          seen.sessionId = id;
          return active;
        },
      };
    },
    findUser: async (id) => {
      seen.userId = id;
      return user;
    },
  };
}

test("a valid token of an active admin", async () => {
  const d = deps();
  const result = await checkAdminToken("Bearer abc.def.ghi", d);
  assert.equal(result.status, 200);
  assert.equal(result.user.email, "a@x");
  assert.equal(d.seen.origin, "admin");
  assert.equal(d.seen.token, "abc.def.ghi");
  assert.equal(d.seen.sessionId, "sess");
  assert.equal(d.seen.userId, 1);
});

test("missing, malformed, invalid or expired tokens: 401", async () => {
  for (const header of [undefined, "", "Basic abc", "Bearer", "Bearer a b"]) {
    assert.equal((await checkAdminToken(header, deps())).status, 401, String(header));
  }
  assert.equal((await checkAdminToken("Bearer x", deps({ valid: false }))).status, 401);
  assert.equal((await checkAdminToken("Bearer x", deps({ throws: true }))).status, 401);
  assert.equal((await checkAdminToken("Bearer x", deps({ active: false }))).status, 401);
  assert.equal((await checkAdminToken("Bearer x", deps({ user: null }))).status, 401);
});

test("inactive or blocked admin: 403", async () => {
  assert.equal(
    (await checkAdminToken("Bearer x", deps({ user: { id: 1, isActive: false, blocked: false } }))).status,
    403,
  );
  assert.equal(
    (await checkAdminToken("Bearer x", deps({ user: { id: 1, isActive: true, blocked: true } }))).status,
    403,
  );
});
