"use strict";

/**
 * The signed-in user's own second factor (docs/cms-contract.md, "Account two-factor";
 * docs/decisions/0020-account-lifecycle.md, "Two-factor"). Every route acts on the user whose
 * JWT is in `Authorization: Bearer`, and on nothing else:
 * - GET  /api/account-two-factor → `{ enabled, recoveryCodesLeft }`;
 * - POST /api/account-two-factor/setup `{ password }` → `{ secret, uri }` (a new pending secret);
 * - POST /api/account-two-factor/enable `{ code }` → `{ recoveryCodes, jwt }` (on; every session ends);
 * - POST /api/account-two-factor/verify `{ code }` → `{ method, recoveryCodesLeft }`;
 * - POST /api/account-two-factor/disable `{ password, code }` → `{ ok: true }`;
 * - POST /api/account-two-factor/recovery-codes `{ code }` → `{ recoveryCodes }` (the old ones end).
 * `auth: false` switches off Strapi's permission check (no role needs a permission); the
 * controller verifies the JWT itself, through the users-permissions JWT service, which also
 * refuses tokens already ended (as account-sessions does).
 */
const route = (method, path, handler) => ({
  method,
  path,
  handler: `account-two-factor.${handler}`,
  config: { auth: false, policies: [], middlewares: [] },
});

module.exports = {
  routes: [
    route("GET", "/account-two-factor", "status"),
    route("POST", "/account-two-factor/setup", "setup"),
    route("POST", "/account-two-factor/enable", "enable"),
    route("POST", "/account-two-factor/verify", "verify"),
    route("POST", "/account-two-factor/disable", "disable"),
    route("POST", "/account-two-factor/recovery-codes", "regenerateRecoveryCodes"),
  ],
};
