"use strict";

const { createRevalidationService } = require("./service");
const { registerRevalidationMiddleware } = require("./middleware");
const { answerAfterHeldWork } = require("./hold-answer");
const { checkAdminToken } = require("./admin-token");
const { PERMISSIONS, userCan, missingPermission } = require("./admin-permission");

/**
 * Wiring (src/index.js): register() creates the service, the document middleware and the Koa
 * middleware that holds an editor's answer until the site has heard of a takedown (hold-answer.js);
 * bootstrap() turns it on once the seed is done (seed writes are not revalidated) and starts
 * the periodic retry of recorded failures; destroy() stops it.
 */
let service = null;
let ready = false;

function registerRevalidation(strapi) {
  service = createRevalidationService(strapi);
  registerRevalidationMiddleware(strapi, service, { isReady: () => ready });
  strapi.server.use(answerAfterHeldWork);
}

function startRevalidation() {
  ready = true;
  service?.start();
}

function stopRevalidation() {
  ready = false;
  service?.stop();
}

const revalidation = () => {
  if (!service) throw new Error("revalidation service not registered");
  return service;
};

/**
 * The admin check for the CMS's own admin-only routes: a valid admin token of an active admin
 * (admin-token.js, 401/403), whose roles grant `action` (one of PERMISSIONS, admin-permission.js;
 * 403 otherwise). { status: 200, user } | { status, message }.
 */
async function requireAdmin(strapi, ctx, action) {
  if (!Object.values(PERMISSIONS).includes(action)) throw new Error(`requireAdmin: unknown admin permission ${action}`);
  const auth = await checkAdminToken(ctx.request.header.authorization, {
    sessionManager: strapi.sessionManager,
    findUser: (id) =>
      strapi.db.query("admin::user").findOne({
        where: { id },
        select: ["id", "email", "isActive", "blocked"],
        populate: { roles: { select: ["id", "code"] } },
      }),
  });
  if (auth.status !== 200) return auth;
  if (!(await userCan(strapi, auth.user, action))) {
    strapi.log.warn(`[admin-permission] refused ${action} to admin ${auth.user.email}`);
    return missingPermission(action);
  }
  return auth;
}

function sendError(ctx, status, message, details = {}) {
  const names = {
    400: "ValidationError",
    401: "UnauthorizedError",
    403: "ForbiddenError",
    503: "ServiceUnavailableError",
  };
  if (status === 401) ctx.set("WWW-Authenticate", "Bearer");
  ctx.status = status;
  ctx.body = { data: null, error: { status, name: names[status] ?? "ApplicationError", message, details } };
}

/**
 * The revalidation service, or null once it has answered 503 because revalidation is off
 * (CMS_REVALIDATE_SECRET unset): for the admin routes that send revalidations.
 */
function revalidationOn(ctx) {
  const service = revalidation();
  if (service.enabled()) return service;
  sendError(
    ctx,
    503,
    "Revalidation is off: set CMS_REVALIDATE_SECRET on the CMS (and the same value on the front end).",
  );
  return null;
}

module.exports = {
  registerRevalidation,
  revalidationOn,
  startRevalidation,
  stopRevalidation,
  revalidation,
  requireAdmin,
  sendError,
  PERMISSIONS,
};
