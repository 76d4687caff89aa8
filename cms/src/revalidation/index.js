'use strict';

const { createRevalidationService } = require('./service');
const { registerRevalidationMiddleware } = require('./middleware');
const { checkAdminToken } = require('./admin-token');

/**
 * Wiring (src/index.js): register() creates the service and the document middleware;
 * bootstrap() turns it on once the seed is done (seed writes are not revalidated) and starts
 * the periodic retry of recorded failures; destroy() stops it.
 */
let service = null;
let ready = false;

function registerRevalidation(strapi) {
  service = createRevalidationService(strapi);
  registerRevalidationMiddleware(strapi, service, { isReady: () => ready });
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
  if (!service) throw new Error('revalidation service not registered');
  return service;
};

/** The admin check for the CMS's own admin-only routes (see admin-token.js). */
function requireAdmin(strapi, ctx) {
  return checkAdminToken(ctx.request.header.authorization, {
    sessionManager: strapi.sessionManager,
    findUser: (id) => strapi.db.query('admin::user').findOne({ where: { id }, select: ['id', 'email', 'isActive', 'blocked'] }),
  });
}

function sendError(ctx, status, message, details = {}) {
  const names = { 400: 'ValidationError', 401: 'UnauthorizedError', 403: 'ForbiddenError', 503: 'ServiceUnavailableError' };
  if (status === 401) ctx.set('WWW-Authenticate', 'Bearer');
  ctx.status = status;
  ctx.body = { data: null, error: { status, name: names[status] ?? 'ApplicationError', message, details } };
}

module.exports = { registerRevalidation, startRevalidation, stopRevalidation, revalidation, requireAdmin, sendError };
