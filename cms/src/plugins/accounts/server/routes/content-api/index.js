"use strict";

const { createTwoFactorStepStrategy } = require("../../strategies/two-factor-step");

/**
 * The plugin's content-API routes (docs/cms-contract.md). Each keeps the path the site calls:
 * `config.prefix: ""` drops the `/accounts` Strapi puts before a plugin's routes, so they stay
 * at /api/<path>.
 *
 * Signed in (Strapi's users-permissions strategy: a valid JWT, ctx.state.user; the action is
 * granted to the Authenticated role by ../../services/permissions.js). Each acts on the caller's
 * own account and on nothing else (ending one or every session is Strapi's own
 * `POST /api/auth/logout`, docs/decisions/0025-strapi-session-management.md):
 * - POST /api/account-sessions/username `{ username }`: the user's own new username (unique);
 * - POST /api/account-sessions/delete-account `{ password? }`: deletes the user (and its provider
 *   links), after the password, or for an account without one a provider sign-in of the last minutes;
 * - POST /api/account-sessions/email-change `{ email, password?, locale? }`: mails the new
 *   address a link (same re-authentication as deletion; the same answer when it is taken);
 * - GET  /api/account-two-factor → `{ enabled, recoveryCodesLeft }`;
 * - POST /api/account-two-factor/setup `{ password }` → `{ secret, uri }` (a new pending secret);
 * - POST /api/account-two-factor/enable `{ code }` → `{ recoveryCodes, jwt }` (on; every session ends);
 * - POST /api/account-two-factor/verify `{ code }` → `{ method, recoveryCodesLeft }`;
 * - POST /api/account-two-factor/disable `{ password, code }` → `{ ok: true }`;
 * - POST /api/account-two-factor/recovery-codes `{ code }` → `{ recoveryCodes }` (the old ones end).
 * The state and verify also take the JWT of a password step waiting for its code
 * (../../strategies/two-factor-step.js); every other route refuses such a JWT.
 *
 * Public (`auth: false`):
 * - GET /api/account-settings → `{ emailConfirmation }` (what Strapi's register answer shows anyone);
 * - POST /api/account-sessions/email-change/confirm `{ token }`: the mail link's token is the
 *   credential (the link may be opened in another browser); with a JWT of the same user, a new
 *   JWT comes back;
 * - POST /api/oauth-sync: server to server, the site's `Authorization: Bearer
 *   <CMS_OAUTH_SYNC_SECRET>` checked by the policy ../../policies/has-oauth-sync-secret.js.
 */
module.exports = ({ strapi }) => {
  const twoFactorStep = createTwoFactorStepStrategy(strapi);
  const route = (method, path, handler, config = {}) => ({
    method,
    path,
    handler,
    config: { prefix: "", policies: [], middlewares: [], ...config },
  });
  const signedIn = (method, path, handler) => route(method, path, handler);
  const secondStep = (method, path, handler) => route(method, path, handler, { auth: { strategies: [twoFactorStep] } });
  const publicRoute = (method, path, handler, config = {}) => route(method, path, handler, { auth: false, ...config });

  return {
    type: "content-api",
    routes: [
      signedIn("POST", "/account-sessions/delete-account", "account-sessions.deleteAccount"),
      signedIn("POST", "/account-sessions/username", "account-sessions.changeUsername"),
      signedIn("POST", "/account-sessions/email-change", "account-sessions.requestEmailChange"),
      publicRoute("POST", "/account-sessions/email-change/confirm", "account-sessions.confirmEmailChange"),

      secondStep("GET", "/account-two-factor", "account-two-factor.status"),
      signedIn("POST", "/account-two-factor/setup", "account-two-factor.setup"),
      signedIn("POST", "/account-two-factor/enable", "account-two-factor.enable"),
      secondStep("POST", "/account-two-factor/verify", "account-two-factor.verify"),
      signedIn("POST", "/account-two-factor/disable", "account-two-factor.disable"),
      signedIn("POST", "/account-two-factor/recovery-codes", "account-two-factor.regenerateRecoveryCodes"),

      publicRoute("GET", "/account-settings", "account-settings.read"),
      publicRoute("POST", "/oauth-sync", "oauth-sync.sync", { policies: ["plugin::accounts.has-oauth-sync-secret"] }),
    ],
  };
};
