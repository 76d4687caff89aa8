"use strict";

/**
 * The account's private fields, kept out of the admin panel.
 *
 * The extensions here add private fields to the users-permissions user: the two-factor fields
 * (./two-factor-fields.js), the pending change of email (./email-change-fields.js). `private` keeps them out of the content API,
 * but the admin's content manager returns private fields to administrators (and to editors allowed
 * to read users). They are sealed, hashed or plain bookkeeping, and no one needs them there: one
 * document middleware drops them from every document-service result for the user. The code that
 * uses them reads them with strapi.db.query, which this does not touch.
 *
 * Which fields: those marked as this project marks its own (`private`, not `visible`, not
 * `writable`); Strapi's own private fields (password, reset and confirmation tokens) are left as
 * Strapi handles them. Applied last (./index.js), so every extension's fields are known.
 */

const USER_UID = "plugin::users-permissions.user";

/** The names of the fields this project added and hides (see above). */
function hiddenFieldNames(attributes) {
  return Object.entries(attributes)
    .filter(([, attribute]) => attribute.private && attribute.visible === false && attribute.writable === false)
    .map(([name]) => name);
}

/** A document-service result (an entry, a list, a delete's `{ entries }`) without the named fields (in place). */
function withoutFields(result, names) {
  const strip = (entry) => {
    if (entry && typeof entry === "object") for (const name of names) delete entry[name];
  };
  if (Array.isArray(result)) result.forEach(strip);
  else if (result && typeof result === "object") {
    strip(result);
    if (Array.isArray(result.entries)) result.entries.forEach(strip);
  }
  return result;
}

/** Adds the document middleware to the users-permissions user (./index.js, after every other extension). */
function extendHiddenAccountFields(points) {
  const names = hiddenFieldNames(points.userAttributes());
  points.useDocumentMiddleware(async (documentContext, next) => {
    const result = await next();
    return documentContext.uid === USER_UID ? withoutFields(result, names) : result;
  });
}

module.exports = { extendHiddenAccountFields, hiddenFieldNames, withoutFields };
