"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  createRevalidationService,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/service");
const { DEFAULTS } = require("../../../../../../../packages/strapi-plugin-site-cache/server/config");

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

test("track: a job counts in inFlight() from the call until it settles, resolved or rejected", async () => {
  const service = createRevalidationService({ log: quiet }, { config: DEFAULTS });
  assert.equal(service.inFlight(), 0);
  let finish;
  const running = service.track(() => new Promise((resolve) => (finish = resolve)));
  const failing = service.track(async () => {
    throw new Error("the front end is down");
  });
  assert.equal(service.inFlight(), 2); // counted at once, before either job has started
  await assert.rejects(failing, /the front end is down/);
  assert.equal(service.inFlight(), 1);
  finish();
  await running;
  assert.equal(service.inFlight(), 0);
});
