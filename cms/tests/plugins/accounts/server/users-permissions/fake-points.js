"use strict";

const { eachUserWrite } = require("../../../../../src/plugins/accounts/server/utils/user-writes");

const USER_UID = "plugin::users-permissions.user";

/**
 * The extension points of src/plugins/accounts/server/users-permissions/extension-points.js,
 * kept in memory: what each extension adds can be read back, and a user write run through its
 * guards as the database lifecycles would (the same handlers: ../utils/user-writes.js).
 */
function fakePoints({ strapi = {}, attributes = {}, services = {}, controllers = {} } = {}) {
  const guards = [];
  const lifecycleSets = [];
  const documentMiddlewares = [];
  // As extension-points.js reads them: the ids an updateMany's `where` matches, from strapi.db.
  const findIds = async (where) =>
    (await strapi.db.query(USER_UID).findMany({ where, select: ["id"] })).map((user) => user.id);
  /** Runs one action's handlers of every guard, in the order they were added, each with its own state. */
  async function run(action, event, states) {
    for (const [index, lifecycles] of lifecycleSets.entries()) {
      await lifecycles[action]?.({ ...event, state: states[index] });
    }
  }
  return {
    strapi,
    attributes,
    services,
    controllers,
    guards,
    documentMiddlewares,
    addUserAttributes(added) {
      for (const [name, attribute] of Object.entries(added)) attributes[name] = { ...attribute };
    },
    userAttributes: () => attributes,
    guardUserWrites(guard, { afterUpdate } = {}) {
      guards.push(guard);
      lifecycleSets.push(eachUserWrite(guard, { afterUpdate, findIds }));
    },
    wrapService(name, wrap) {
      services[name] = wrap(services[name]);
    },
    wrapController(name, wrap) {
      controllers[name] = wrap(controllers[name]);
    },
    useDocumentMiddleware(middleware) {
      documentMiddlewares.push(middleware);
    },
    /** The data of a user write after every guard (in place, as the lifecycles do). */
    write(data) {
      for (const guard of guards) guard(data);
      return data;
    },
    /**
     * An update of user `id`: every guard's before- and after-update handlers, as the database
     * runs them, with `write(data)` (the row's write, optional) in between.
     */
    async update(id, data, write = async () => {}) {
      const states = lifecycleSets.map(() => ({}));
      await run("beforeUpdate", { params: { where: { id }, data } }, states);
      await write(data);
      await run("afterUpdate", { params: { where: { id }, data }, result: { id } }, states);
      return data;
    },
    /** An updateMany of the users `where` matches, likewise. */
    async updateMany(where, data) {
      const states = lifecycleSets.map(() => ({}));
      await run("beforeUpdateMany", { params: { where, data } }, states);
      await run("afterUpdateMany", { params: { where, data }, result: { count: 1 } }, states);
      return data;
    },
  };
}

module.exports = { fakePoints };
