"use strict";

/**
 * GET /api/account-settings — what the front end must know about the users-permissions settings
 * to word its pages: `{ emailConfirmation }` (whether a new account must confirm its address
 * before signing in). Public: Strapi's own register answer shows the same (a user without JWT).
 */
module.exports = {
  routes: [
    {
      method: "GET",
      path: "/account-settings",
      handler: "account-settings.read",
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
