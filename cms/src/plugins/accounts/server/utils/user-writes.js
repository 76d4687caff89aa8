"use strict";

/**
 * Database lifecycle handlers that pass the data of every write of the users-permissions user
 * through `guard(data)` (which changes it in place): a create or update of one entry, and each
 * entry of a createMany / updateMany. The one place the one/many pair is written; every field
 * extension of users-permissions/ hands its guard to it.
 *
 * With `afterUpdate`, a guard also says what happens once the write is done: it returns true for
 * data that needs it (the session check: a write that ends every session of its user), and
 * `afterUpdate(userIds)` runs after the update with the ids of the users it changed: the written
 * entry's id for an update of one, the ids its `where` matched (read by `findIds(where)` before
 * the write, which may change what matches) for an updateMany. A created user is only guarded
 * (it has nothing to follow up yet).
 */
function eachUserWrite(guard, { afterUpdate, findIds } = {}) {
  const one = (event) => {
    guard(event.params?.data);
  };
  const many = (event) => {
    const data = event.params?.data;
    for (const item of Array.isArray(data) ? data : [data]) guard(item);
  };
  const lifecycles = { beforeCreate: one, beforeUpdate: one, beforeCreateMany: many, beforeUpdateMany: many };
  if (typeof afterUpdate !== "function") return lifecycles;
  if (typeof findIds !== "function") throw new TypeError("eachUserWrite: afterUpdate needs findIds(where)");
  return {
    ...lifecycles,
    beforeUpdate(event) {
      event.state.followUp = guard(event.params?.data) === true;
    },
    async afterUpdate(event) {
      const id = event.result?.id;
      if (event.state.followUp && id !== undefined && id !== null) await afterUpdate([id]);
    },
    async beforeUpdateMany(event) {
      const data = event.params?.data;
      // Every entry is guarded (no short cut): each must lose what a caller may not write.
      const flags = (Array.isArray(data) ? data : [data]).map((item) => guard(item) === true);
      event.state.followUpIds = flags.includes(true) ? await findIds(event.params?.where ?? {}) : [];
    },
    async afterUpdateMany(event) {
      const ids = event.state.followUpIds ?? [];
      if (ids.length > 0) await afterUpdate(ids);
    },
  };
}

module.exports = { eachUserWrite };
