"use strict";

/**
 * The revalidation service, or null once the request has been answered 503 because revalidation
 * is off (no revalidateSecret): for the admin actions that send revalidations.
 */
function revalidationOn(strapi, ctx) {
  const service = strapi.plugin("site-cache").service("revalidation");
  if (service.enabled()) return service;
  ctx.serviceUnavailable(
    "Revalidation is off: set CMS_REVALIDATE_SECRET on the CMS (and the same value on the front end).",
  );
  return null;
}

/** "Invalid body: <path> <message>; …" for a validator's errors (manual-revalidation.js, cdn-purge.js). */
const invalidBody = (errors) =>
  `Invalid body: ${errors.map((e) => `${e.path.join(".") || "(body)"} ${e.message}`).join("; ")}`;

module.exports = { revalidationOn, invalidBody };
