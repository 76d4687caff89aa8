"use strict";

const createHttpError = require("http-errors");
const { errors } = require("@strapi/utils");

/**
 * The plugin's refusals. Each carries `details.code`, an UPPER_SNAKE name the site maps to its
 * own code and words (app/lib/auth/cms-*.server.ts): the one way this plugin tags a refusal.
 * Strapi's error middleware answers every one in its error shape
 * (`{ data: null, error: { status, name, message, details } }`); nothing here builds that body.
 *
 * Which error: 400, 404 and 429 are @strapi/utils' ValidationError, NotFoundError and
 * RateLimitError. For 401 and 403, @strapi/utils' UnauthorizedError and ForbiddenError cannot be
 * used inside a route: Strapi's authorize step (core compose-endpoint.js) catches them from the
 * policies and the controller and answers a bare "Unauthorized" / "Forbidden", dropping the
 * message and the code. Those, and the statuses @strapi/utils has no class for (409, 500, 503),
 * are http-errors' (the library Strapi uses for the same answers; cms/package.json pins the
 * version @strapi/utils depends on, so npm keeps one copy and Strapi's error middleware knows them
 * as its own HttpError), which that middleware formats the same way. Outside a route (a global middleware) ForbiddenError is fine.
 */
const CLASSES = {
  400: errors.ValidationError,
  404: errors.NotFoundError,
  429: errors.RateLimitError,
};

/** The error to throw for a refusal of `status` with its message and `details.code`. */
function refusalError(status, message, code, details = {}) {
  const ErrorClass = CLASSES[status];
  if (ErrorClass) return new ErrorClass(message, { code, ...details });
  return createHttpError(status, message, { details: { code, ...details }, expose: true });
}

const invalid = (message, code, details) => refusalError(400, message, code, details);
const unauthorized = (message, code, details) => refusalError(401, message, code, details);
const forbidden = (message, code, details = {}) => new errors.ForbiddenError(message, { code, ...details });

/** The description of a refusal, for pure modules that decide without a request at hand. */
const refusal = (status, message, code, details = {}) => ({ status, message, code, details });

/** The error to throw for a refusal() description. */
const errorOf = ({ status, message, code, details }) => refusalError(status, message, code, details);

module.exports = { refusalError, invalid, unauthorized, forbidden, refusal, errorOf };
