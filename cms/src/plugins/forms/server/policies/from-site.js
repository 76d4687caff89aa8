"use strict";

const crypto = require("node:crypto");

const createHttpError = require("http-errors");

/**
 * POST /api/form-submissions answers the site's server only: `X-Site-Secret:
 * <CMS_ACCOUNT_API_SECRET>`, the header the site's CMS client already sends for account calls
 * (docs/decisions/0022-cms-account-api-site-only.md), compared in constant time (SHA-256 of both,
 * then timingSafeEqual). The site has checked origin, bot and rate limit; a post straight to the
 * CMS would skip all three. Unset on the CMS: 503, never open.
 */
module.exports = (policyContext, _config, { strapi }) => {
  const secret = strapi.config.get("plugin::forms").siteSecret;
  if (!secret) {
    throw createHttpError(503, "Form submissions are off: set CMS_ACCOUNT_API_SECRET on the CMS and the site.", {
      details: { code: "NOT_CONFIGURED" },
      expose: true,
    });
  }
  const given = policyContext.request.header["x-site-secret"];
  const equal = crypto.timingSafeEqual(sha256(typeof given === "string" ? given : ""), sha256(secret));
  if (equal) return true;
  throw createHttpError(403, "Form submissions come through the site's own server only.", {
    details: { code: "SITE_ONLY" },
    expose: true,
  });
};

const sha256 = (value) => crypto.createHash("sha256").update(value, "utf8").digest();
