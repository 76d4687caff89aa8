"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  canonicalJson,
  createFailureSigner,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/failure-signature");
const {
  createRevalidationService,
  UNVERIFIED,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/service");
const { fakeStrapi, frontEnd, SERVICE_CONFIG } = require("./stand-ins");

const UID = "api::footer.footer";
const PAYLOAD = { uid: UID, next: { tags: ["cms:api::footer.footer"] }, committedAt: 1_700_000_000_000 };

test("a signature verifies for the same uid and payload, with the keys in any order (jsonb reorders them)", () => {
  const signer = createFailureSigner(["key-1"]);
  const signature = signer.sign(UID, PAYLOAD);
  assert.match(signature, /^[0-9a-f]{64}$/);
  const reordered = { committedAt: PAYLOAD.committedAt, next: { tags: [...PAYLOAD.next.tags] }, uid: UID };
  assert.equal(signer.verify({ uid: UID, payload: reordered, signature }), true);
  assert.equal(canonicalJson(reordered), canonicalJson(PAYLOAD));
});

test("a changed payload or uid, a missing or malformed signature, or another key: does not verify", () => {
  const signer = createFailureSigner(["key-1"]);
  const signature = signer.sign(UID, PAYLOAD);
  const takedown = { uid: "api::navbar.navbar", next: { tags: ["cms:api::navbar.navbar"], expire: true } };
  for (const row of [
    { uid: UID, payload: { ...PAYLOAD, next: { ...PAYLOAD.next, expire: true } }, signature },
    { uid: "api::navbar.navbar", payload: PAYLOAD, signature },
    { uid: "api::navbar.navbar", payload: takedown, signature },
    { uid: UID, payload: PAYLOAD },
    { uid: UID, payload: PAYLOAD, signature: null },
    { uid: UID, payload: PAYLOAD, signature: signature.slice(2) },
    { uid: UID, payload: PAYLOAD, signature: `${signature.slice(0, 62)}zz` },
  ])
    assert.equal(signer.verify(row), false, JSON.stringify(row));
  assert.equal(createFailureSigner(["key-2"]).verify({ uid: UID, payload: PAYLOAD, signature }), false);
});

test("APP_KEYS rotation: signed with the first key, rows signed with a later one still verify", () => {
  const before = createFailureSigner(["old-key"]).sign(UID, PAYLOAD);
  const rotated = createFailureSigner(["new-key", "old-key"]);
  assert.equal(rotated.verify({ uid: UID, payload: PAYLOAD, signature: before }), true);
  assert.notEqual(rotated.sign(UID, PAYLOAD), before);
});

test("no key: signing throws (Strapi refuses to start without APP_KEYS anyway), nothing verifies", () => {
  const signer = createFailureSigner([]);
  assert.throws(() => signer.sign(UID, PAYLOAD), /no APP_KEYS/);
  assert.equal(signer.verify({ uid: UID, payload: PAYLOAD, signature: "0".repeat(64) }), false);
});

test("the retry sends a failure the service recorded and refuses a row written by anyone else", async () => {
  const failures = [];
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(failures), {
    config: SERVICE_CONFIG,
    fetch: site.fetch,
    sleep: async () => {},
  });
  // A genuine failure: the site answers 503.
  const first = service.revalidate({ uid: UID, tags: ["cms:api::footer.footer"] }, { retries: 0, purgeCdn: false });
  await site.requests(1);
  site.answer(503);
  await first;
  assert.equal(failures.length, 1);
  assert.match(failures[0].signature, /^[0-9a-f]{64}$/);
  // What an editor could create in the Content Manager: an unsigned takedown of every page,
  // and one that carries the genuine row's signature with another payload.
  const everything = { next: { tags: ["cms:api::navbar.navbar"], expire: true } };
  failures.push(
    { id: 100, uid: "api::navbar.navbar", payload: everything, state: "pending", attempts: 0 },
    { id: 101, uid: UID, payload: everything, signature: failures[0].signature, state: "pending", attempts: 0 },
  );

  const retried = service.retryFailures();
  await site.requests(2);
  site.answer(200, {});
  // A delivered revalidation is then purged from the CDN (the site here has none: 501).
  await site.requests(3);
  site.answer(501, { error: "No CDN" });
  assert.deepEqual(await retried, { retried: 1, delivered: 1, refused: 2 });
  assert.deepEqual(
    site.calls.map((call) => [call.path, call.body.next ?? call.body]),
    [
      ["/api/cms-revalidate", { tags: ["cms:api::footer.footer"] }],
      ["/api/cms-revalidate", { tags: ["cms:api::footer.footer"] }],
      ["/api/cdn-purge", { tags: ["cms:api::footer.footer"], soft: true }],
    ],
  );
  assert.deepEqual(
    failures.map((row) => [row.id, row.state, row.lastError]),
    [
      [100, "rejected", UNVERIFIED],
      [101, "rejected", UNVERIFIED],
    ],
  );
  // Rejected rows are not looked at again.
  assert.deepEqual(await service.retryFailures(), { retried: 0, delivered: 0, refused: 0 });
  assert.equal(site.calls.length, 3);
});
