"use strict";

/**
 * Database lifecycle handlers that pass the data of every write of the users-permissions user
 * through `guard(data)` (which changes it in place): a create or update of one entry, and each
 * entry of a createMany / updateMany. The one place the one/many pair is written; every field
 * extension of users-permissions/ hands its guard to it.
 */
function eachUserWrite(guard) {
  const one = (event) => {
    guard(event.params?.data);
  };
  const many = (event) => {
    const data = event.params?.data;
    for (const item of Array.isArray(data) ? data : [data]) guard(item);
  };
  return { beforeCreate: one, beforeUpdate: one, beforeCreateMany: many, beforeUpdateMany: many };
}

module.exports = { eachUserWrite };
