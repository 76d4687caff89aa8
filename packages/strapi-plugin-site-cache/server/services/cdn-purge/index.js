"use strict";

const { forwardPurge } = require("./forward");

/**
 * `strapi.plugin("site-cache").service("cdn-purge")`: an admin's purge of the CDN in front of the
 * site, through the site's POST /api/cdn-purge (forward.js). Off without cdnPurgeSecret.
 */
module.exports = ({ strapi }) => {
  const { clientUrl, cdnPurgeSecret, purgeTimeoutMs } = strapi.config.get("plugin::site-cache");
  return {
    enabled: () => Boolean(cdnPurgeSecret),
    purge: (request) => forwardPurge(request, { clientUrl, secret: cdnPurgeSecret, timeoutMs: purgeTimeoutMs }),
  };
};
