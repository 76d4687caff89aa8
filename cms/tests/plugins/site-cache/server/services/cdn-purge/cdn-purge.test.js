"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");

const {
  validatePurgeBody,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/controllers/validation/cdn-purge");
const {
  forwardPurge,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/cdn-purge/forward");

test("a purge body is paths, tags or everything", () => {
  assert.deepEqual(validatePurgeBody({ paths: ["/company"] }), { value: { paths: ["/company"] } });
  assert.deepEqual(validatePurgeBody({ everything: true }), { value: { everything: true } });
  for (const bad of [
    {},
    { paths: [] },
    { paths: ["company"] },
    { everything: false },
    { tags: ["a b"] },
    { paths: ["/a"], extra: 1 },
    null,
  ]) {
    assert.ok(validatePurgeBody(bad).errors, JSON.stringify(bad));
  }
});

function fakeFetch(status, body) {
  const calls = [];
  const impl = async (url, init) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status });
  };
  return { impl, calls };
}

test("forwards to the front end with the purge secret and passes its answer on", async () => {
  const { impl, calls } = fakeFetch(200, { purged: true, provider: "http", requests: ["PURGE /company"] });
  const result = await forwardPurge(
    { paths: ["/company"] },
    { clientUrl: "http://site", secret: "s3cret", fetchImpl: impl },
  );
  assert.deepEqual(result, { status: 200, body: { purged: true, provider: "http", requests: ["PURGE /company"] } });
  assert.equal(calls[0].url, "http://site/api/cdn-purge");
  assert.equal(calls[0].init.headers.authorization, "Bearer s3cret");
  assert.deepEqual(JSON.parse(calls[0].init.body), { paths: ["/company"] });
});

test("no CDN configured stays 501; a refused secret or an error is a 502 that says why", async () => {
  assert.equal(
    (
      await forwardPurge(
        { everything: true },
        { clientUrl: "http://site", secret: "s", fetchImpl: fakeFetch(501, { error: "No CDN" }).impl },
      )
    ).status,
    501,
  );
  const refused = await forwardPurge(
    { everything: true },
    { clientUrl: "http://site", secret: "s", fetchImpl: fakeFetch(401, {}).impl },
  );
  assert.equal(refused.status, 502);
  assert.match(refused.body.error, /CMS_CDN_PURGE_SECRET must be the same/);
  const down = await forwardPurge(
    { everything: true },
    {
      clientUrl: "http://site",
      secret: "s",
      fetchImpl: async () => {
        throw new Error("connect ECONNREFUSED");
      },
    },
  );
  assert.equal(down.status, 502);
  assert.match(down.body.error, /could not be reached/);
});
