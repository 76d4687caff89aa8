"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { eachUserWrite } = require("../../../../../src/plugins/accounts/server/utils/user-writes");

test("one guard for every user write: create and update of one entry, each entry of createMany and updateMany", () => {
  const seen = [];
  const lifecycles = eachUserWrite((data) => seen.push(data));
  assert.deepEqual(Object.keys(lifecycles).sort(), [
    "beforeCreate",
    "beforeCreateMany",
    "beforeUpdate",
    "beforeUpdateMany",
  ]);
  lifecycles.beforeCreate({ params: { data: { a: 1 } } });
  lifecycles.beforeUpdate({ params: { data: { b: 2 } } });
  lifecycles.beforeCreateMany({ params: { data: [{ c: 3 }, { d: 4 }] } });
  lifecycles.beforeUpdateMany({ params: { where: {}, data: { e: 5 } } });
  lifecycles.beforeUpdate({ params: {} });
  assert.deepEqual(seen, [{ a: 1 }, { b: 2 }, { c: 3 }, { d: 4 }, { e: 5 }, undefined]);
});

test("with afterUpdate: it runs once an update flagged by the guard is written, with the users it changed", async () => {
  const done = [];
  const lookedUp = [];
  const lifecycles = eachUserWrite((data) => data?.ends === true, {
    afterUpdate: async (ids) => done.push(ids),
    findIds: async (where) => (lookedUp.push(where), [3, 4]),
  });
  const flagged = { params: { data: { ends: true } }, state: {}, result: { id: 9 } };
  lifecycles.beforeUpdate(flagged);
  await lifecycles.afterUpdate(flagged);
  const plain = { params: { data: { ends: false } }, state: {}, result: { id: 9 } };
  lifecycles.beforeUpdate(plain);
  await lifecycles.afterUpdate(plain);
  assert.deepEqual(done, [[9]]);
  // updateMany: the ids its where matches are read before the write; nothing read when not flagged.
  const many = { params: { where: { blocked: false }, data: { ends: true } }, state: {} };
  await lifecycles.beforeUpdateMany(many);
  await lifecycles.afterUpdateMany(many);
  const manyPlain = { params: { where: { x: 1 }, data: { ends: false } }, state: {} };
  await lifecycles.beforeUpdateMany(manyPlain);
  await lifecycles.afterUpdateMany(manyPlain);
  assert.deepEqual(lookedUp, [{ blocked: false }]);
  assert.deepEqual(done, [[9], [3, 4]]);
  // A create is guarded only.
  assert.equal(lifecycles.afterCreate, undefined);
  assert.throws(() => eachUserWrite(() => true, { afterUpdate: async () => {} }), /findIds/);
});
