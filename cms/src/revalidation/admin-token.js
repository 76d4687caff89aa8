"use strict";

/**
 * Is this request made by a signed-in admin? Checks `Authorization: Bearer <admin access
 * token>` the way Strapi 5.54's own admin auth strategy does (@strapi/admin
 * server/src/strategies/admin.js): the session manager verifies signature, expiry and token
 * type, the session must still be active, and the admin user must exist, be active and not be
 * blocked. Never throws: { status: 200, user } | { status: 401 | 403, message }.
 * `sessionManager` is `strapi.sessionManager`; `findUser(id)` loads an admin::user.
 */
async function checkAdminToken(authorization, { sessionManager, findUser }) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(String(authorization ?? ""));
  if (!match)
    return {
      status: 401,
      message: "Missing Authorization: Bearer <admin token> (the token POST /admin/login returns).",
    };
  let payload;
  try {
    const result = sessionManager("admin").validateAccessToken(match[1]);
    if (!result?.isValid || !result.payload) return { status: 401, message: "Invalid or expired admin token." };
    payload = result.payload;
    if (!(await sessionManager("admin").isSessionActive(payload.sessionId))) {
      return { status: 401, message: "The admin session of this token has ended: sign in again." };
    }
  } catch {
    return { status: 401, message: "Invalid or expired admin token." };
  }
  let user;
  try {
    const raw = payload.userId;
    const numeric = Number(raw);
    user = await findUser(Number.isFinite(numeric) && String(numeric) === String(raw) ? numeric : raw);
  } catch {
    user = null;
  }
  if (!user) return { status: 401, message: "The admin user of this token does not exist." };
  if (user.isActive !== true || user.blocked === true)
    return { status: 403, message: "This admin user is inactive or blocked." };
  return { status: 200, user };
}

module.exports = { checkAdminToken };
