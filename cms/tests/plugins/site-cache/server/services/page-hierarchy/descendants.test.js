"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  queryWithout,
  CHUNK,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/page-hierarchy/descendants");

test("queryWithout: the picker's query gains a documentId $notIn filter, next to what it had", () => {
  const query = { id: "a", locale: "en", page: "1", pageSize: "10" };
  assert.deepEqual(queryWithout(query, new Set(["a", "b"])), {
    ...query,
    filters: { $and: [{ documentId: { $notIn: ["a", "b"] } }] },
  });
  const filtered = { ...query, filters: { title: { $containsi: "x" } } };
  assert.deepEqual(queryWithout(filtered, ["a"]).filters, {
    $and: [{ title: { $containsi: "x" } }, { documentId: { $notIn: ["a"] } }],
  });
  assert.equal(queryWithout(query, []), query);
});

test("queryWithout: more documentIds than a query-string array holds are split into several filters", () => {
  const ids = Array.from({ length: CHUNK * 2 + 1 }, (_, i) => `d${i}`);
  const { filters } = queryWithout({}, ids);
  assert.equal(filters.$and.length, 3);
  assert.ok(filters.$and.every((clause) => clause.documentId.$notIn.length <= CHUNK));
  assert.deepEqual(
    filters.$and.flatMap((clause) => clause.documentId.$notIn),
    ids,
  );
  // And they survive the round trip through qs with Strapi's limits (cms/config: arrayLimit 100).
  const qs = require("qs");
  const parsed = qs.parse(qs.stringify({ filters }), { arrayLimit: 100, depth: 20, strictNullHandling: true });
  assert.deepEqual(parsed.filters.$and[2].documentId.$notIn, [`d${CHUNK * 2}`]);
  assert.ok(Array.isArray(parsed.filters.$and[1].documentId.$notIn));
  assert.equal(parsed.filters.$and[1].documentId.$notIn.length, CHUNK);
});
