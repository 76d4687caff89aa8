"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  describeFailure,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/failures");

test("a failure lists its paths and tags, marks a takedown, and keeps the last error", () => {
  const row = {
    id: 7,
    uid: "api::page.page",
    state: "pending",
    payload: { uid: "api::page.page", next: { fullPaths: ["/company", "/de/firma"], tags: ["cms:x"], expire: true } },
    attempts: 3,
    lastStatus: 503,
    lastError: "HTTP 503",
    lastTriedAt: "2026-11-23T10:00:00.000Z",
  };
  assert.deepEqual(describeFailure(row), {
    id: 7,
    uid: "api::page.page",
    state: "pending",
    what: "/company, /de/firma, cms:x",
    takedown: true,
    attempts: 3,
    lastStatus: 503,
    lastError: "HTTP 503",
    lastTriedAt: "2026-11-23T10:00:00.000Z",
  });
});

test("a failure without a payload, status or error still describes itself", () => {
  const described = describeFailure({ id: 1, uid: "api::navbar.navbar", state: "rejected", payload: null });
  assert.equal(described.what, "(nothing listed)");
  assert.equal(described.takedown, false);
  assert.equal(described.attempts, 0);
  assert.equal(described.lastStatus, null);
  assert.equal(described.lastError, null);
});
