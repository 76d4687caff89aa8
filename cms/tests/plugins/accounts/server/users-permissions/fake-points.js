"use strict";

/**
 * The extension points of src/plugins/accounts/server/users-permissions/extension-points.js,
 * kept in memory: what each extension adds can be read back, and a user write run through its
 * guards as the database lifecycle would.
 */
function fakePoints({ strapi = {}, attributes = {}, services = {}, controllers = {} } = {}) {
  const guards = [];
  const documentMiddlewares = [];
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
    guardUserWrites(guard) {
      guards.push(guard);
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
  };
}

module.exports = { fakePoints };
