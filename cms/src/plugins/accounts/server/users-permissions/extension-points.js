"use strict";

const { eachUserWrite } = require("../utils/user-writes");

const USER_UID = "plugin::users-permissions.user";

/**
 * What the extensions of this folder may change in the users-permissions plugin, through
 * Strapi's registries (during the accounts plugin's register, before the database schema is
 * synced and the routes are built): the user's attributes, a guard on every user write (a
 * database lifecycle subscriber, with an optional step once an update is written:
 * ../utils/user-writes.js), its services and controllers (wrapped), and a document middleware.
 * Guards run in the order they were added (./index.js). Each extension takes these points, not Strapi itself, so a test hands it fakes.
 */
function extensionPoints(strapi) {
  return {
    strapi,
    addUserAttributes(attributes) {
      strapi.get("content-types").extend(USER_UID, (contentType) => {
        for (const [name, attribute] of Object.entries(attributes)) contentType.attributes[name] = { ...attribute };
      });
    },
    userAttributes: () => strapi.contentType(USER_UID).attributes,
    guardUserWrites(guard, { afterUpdate } = {}) {
      const findIds = async (where) =>
        (await strapi.db.query(USER_UID).findMany({ where, select: ["id"] })).map((user) => user.id);
      strapi.db.lifecycles.subscribe({ models: [USER_UID], ...eachUserWrite(guard, { afterUpdate, findIds }) });
    },
    wrapService(name, wrap) {
      strapi.get("services").extend(`plugin::users-permissions.${name}`, wrap);
    },
    wrapController(name, wrap) {
      strapi.get("controllers").extend(`plugin::users-permissions.${name}`, wrap);
    },
    useDocumentMiddleware(middleware) {
      strapi.documents.use(middleware);
    },
  };
}

module.exports = { extensionPoints, USER_UID };
