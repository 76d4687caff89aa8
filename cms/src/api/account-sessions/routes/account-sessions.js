"use strict";

/**
 * The signed-in user's own account (docs/cms-contract.md, "Account sessions route"). Each acts on the
 * user whose JWT is in `Authorization: Bearer`, and on nothing else (ending one or every session is
 * Strapi's own `POST /api/auth/logout`, docs/decisions/0024-strapi-session-management.md):
 * - POST /api/account-sessions/username `{ username }`: the user's own new username (unique);
 * - POST /api/account-sessions/delete-account `{ password? }`: deletes the user (and its provider
 *   links), after the password, or for an account without one a provider sign-in of the last 5 minutes;
 * - POST /api/account-sessions/email-change `{ email, password?, locale? }`: mails the new
 *   address a link (same re-authentication as deletion; the same answer when it is taken);
 * - POST /api/account-sessions/email-change/confirm `{ token }`: the link's token changes the
 *   email. No JWT needed (the link may be opened in another browser); with one of the same user,
 *   a new JWT comes back.
 * `auth: false` switches off Strapi's permission check (no role needs a permission); the
 * controller verifies the JWT itself, through the users-permissions JWT service, which also
 * refuses tokens already ended.
 */
module.exports = {
  routes: [
    {
      method: "POST",
      path: "/account-sessions/delete-account",
      handler: "account-sessions.deleteAccount",
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: "POST",
      path: "/account-sessions/username",
      handler: "account-sessions.changeUsername",
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: "POST",
      path: "/account-sessions/email-change",
      handler: "account-sessions.requestEmailChange",
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: "POST",
      path: "/account-sessions/email-change/confirm",
      handler: "account-sessions.confirmEmailChange",
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
