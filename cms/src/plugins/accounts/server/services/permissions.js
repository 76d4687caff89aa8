"use strict";

const ROLE_UID = "plugin::users-permissions.role";
const PERMISSION_UID = "plugin::users-permissions.permission";

/**
 * The content-API actions a signed-in user needs: the plugin's own (routes/content-api) and
 * users-permissions' logout (`POST /api/auth/logout`, which the site's sign-out and "sign out
 * everywhere" call: docs/decisions/0025-strapi-session-management.md; Strapi grants it to the
 * Authenticated role of a new database only). The Authenticated role gets them on every start, in
 * production as in development, so the site's account pages and sign-outs work without a step in
 * the admin panel. They act on the caller's own account and sessions only.
 */
const PLUGIN_ACTIONS = [
  "account-sessions.deleteAccount",
  "account-sessions.changeUsername",
  "account-sessions.requestEmailChange",
  "account-two-factor.status",
  "account-two-factor.setup",
  "account-two-factor.enable",
  "account-two-factor.verify",
  "account-two-factor.disable",
  "account-two-factor.regenerateRecoveryCodes",
].map((action) => `plugin::accounts.${action}`);
const LOGOUT_ACTION = "plugin::users-permissions.auth.logout";
const AUTHENTICATED_ACTIONS = [...PLUGIN_ACTIONS, LOGOUT_ACTION];

/** `strapi.plugin("accounts").service("permissions")`: grantAuthenticated() on every start (src/index.js, after users-permissions' bootstrap). */
module.exports = ({ strapi }) => ({
  /** Adds the actions the Authenticated role lacks (logged); returns the actions added. */
  async grantAuthenticated() {
    const role = await strapi.db.query(ROLE_UID).findOne({ where: { type: "authenticated" }, select: ["id"] });
    if (!role) {
      strapi.log.warn(
        "[accounts] no Authenticated role: the account routes and Strapi's logout answer 403 to every user",
      );
      return [];
    }
    const permissions = strapi.db.query(PERMISSION_UID);
    const held = await permissions.findMany({
      where: { role: { id: role.id }, action: { $in: AUTHENTICATED_ACTIONS } },
      select: ["action"],
    });
    const missing = AUTHENTICATED_ACTIONS.filter((action) => !held.some((permission) => permission.action === action));
    for (const action of missing) await permissions.create({ data: { action, role: role.id } });
    if (missing.length > 0) strapi.log.info(`[accounts] Authenticated role granted ${missing.join(", ")}`);
    return missing;
  },
});

module.exports.AUTHENTICATED_ACTIONS = AUTHENTICATED_ACTIONS;
module.exports.LOGOUT_ACTION = LOGOUT_ACTION;
