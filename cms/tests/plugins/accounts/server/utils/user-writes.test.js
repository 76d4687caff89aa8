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
