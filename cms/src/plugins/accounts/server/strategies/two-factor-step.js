"use strict";

const { errors } = require("@strapi/utils");

/**
 * The content-API auth strategy of the two routes a sign-in's second step calls (the two-factor
 * state and the code check, routes/content-api): like users-permissions' own strategy, but the
 * JWT may also be one of a password step still waiting for its code (twoFactorPending,
 * ../users-permissions/two-factor-sign-in.js), which every other route refuses. The user must
 * exist, not be blocked, and be confirmed when confirmation is on; the route's action must be
 * granted to the user's role (the Authenticated role: ../services/permissions.js).
 */
function createTwoFactorStepStrategy(strapi) {
  const up = () => strapi.plugin("users-permissions");

  async function authenticate(ctx) {
    const [scheme, token, ...rest] = String(ctx.request.header.authorization ?? "").split(/\s+/);
    if (scheme.toLowerCase() !== "bearer" || !token || rest.length > 0) return { authenticated: false };
    let payload;
    try {
      payload = await up().service("jwt").verify(token, { allowTwoFactorPending: true });
    } catch {
      return { authenticated: false };
    }
    if (!payload || payload.id === undefined) return { authenticated: false };
    const user = await up().service("user").fetchAuthenticatedUser(payload.id);
    if (!user || user.blocked) return { error: "Invalid credentials" };
    const advanced = (await strapi.store({ type: "plugin", name: "users-permissions" }).get({ key: "advanced" })) ?? {};
    if (advanced.email_confirmation && !user.confirmed) return { error: "Invalid credentials" };
    const permissionService = up().service("permission");
    const permissions = (await permissionService.findRolePermissions(user.role.id)).map((permission) =>
      permissionService.toContentAPIPermission(permission),
    );
    const ability = await strapi.contentAPI.permissions.engine.generateAbility(permissions);
    ctx.state.user = user;
    return { authenticated: true, credentials: user, ability };
  }

  function verify(auth, config) {
    if (!auth.credentials || !auth.ability) throw new errors.UnauthorizedError();
    if (!config.scope) return;
    const scopes = Array.isArray(config.scope) ? config.scope : [config.scope];
    if (!scopes.every((scope) => auth.ability.can(scope))) throw new errors.ForbiddenError();
  }

  return { name: "accounts-two-factor-step", authenticate, verify };
}

module.exports = { createTwoFactorStepStrategy };
