"use strict";

/**
 * POST /api/oauth-sync — server to server, for the front end only: after a user signed in
 * with OAuth on the front end, find or create the matching users-permissions user and return
 * a CMS JWT. `auth: false` switches off Strapi's API-token / user-JWT check; the controller
 * checks `Authorization: Bearer <CMS_OAUTH_SYNC_SECRET>` itself, before the body is used.
 */
module.exports = {
  routes: [
    {
      method: "POST",
      path: "/oauth-sync",
      handler: "oauth-sync.sync",
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
