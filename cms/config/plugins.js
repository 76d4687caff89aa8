"use strict";

const path = require("node:path");

// The accounts plugin's pure helpers for the values read here (the plugin reads no environment itself).
const {
  defaultSender,
  normaliseClientUrl,
  parseEmailConfirmation,
} = require("../src/plugins/accounts/server/services/auth-settings/settings");

const { ACCEPTED_TYPES, REFUSED_TYPES } = require("../src/uploads/upload-policy");

const CMS_ROOT = path.resolve(__dirname, "..");

/**
 * Email: SMTP (nodemailer) when SMTP_HOST is set, otherwise every message is written as a JSON
 * file to CMS_MAIL_DIR (development, tests; see providers/email-to-file).
 */
function emailConfig(env) {
  // Unset: "<SITE_NAME> <no-reply@<CLIENT_URL's host>>", the sender the auth templates get too.
  const defaultFrom =
    env("EMAIL_FROM", "").trim() || defaultSender(env("SITE_NAME", ""), normaliseClientUrl(env("CLIENT_URL", "")));
  const replyTo = env("EMAIL_REPLY_TO", "");
  const settings = { defaultFrom, ...(replyTo ? { defaultReplyTo: replyTo } : {}) };
  const host = env("SMTP_HOST", "");
  if (host) {
    const port = env.int("SMTP_PORT", 587);
    const user = env("SMTP_USERNAME", "");
    return {
      provider: "nodemailer",
      providerOptions: {
        host,
        port,
        // 465 is implicit TLS; other ports upgrade with STARTTLS when the server offers it.
        secure: env.bool("SMTP_SECURE", port === 465),
        ...(user ? { auth: { user, pass: env("SMTP_PASSWORD", "") } } : {}),
      },
      settings,
    };
  }
  return {
    provider: "strapi-provider-email-to-file",
    providerOptions: { dir: path.resolve(CMS_ROOT, env("CMS_MAIL_DIR", ".tmp/mail")) },
    settings,
  };
}

/**
 * Strapi's own limit on the auth routes (/auth/local, register, forgot/reset/change password,
 * /connect/*) is keyed by path + client IP. Every call comes from the front end's single IP,
 * so Strapi's default (10 per minute) would be a site-wide limit: the front end limits per real
 * client IP, and Strapi's limit is only a backstop. CMS_AUTH_RATELIMIT_MAX=0 turns it off.
 */
function authRateLimit(env) {
  const max = env.int("CMS_AUTH_RATELIMIT_MAX", 1000);
  const interval = env.int("CMS_AUTH_RATELIMIT_INTERVAL_MS", 60_000);
  if (!Number.isInteger(max) || max < 0) throw new Error("[cms] CMS_AUTH_RATELIMIT_MAX must be an integer >= 0.");
  if (!Number.isInteger(interval) || interval < 1) {
    throw new Error("[cms] CMS_AUTH_RATELIMIT_INTERVAL_MS must be a positive integer (milliseconds).");
  }
  return { enabled: max > 0, max, interval };
}

/**
 * The site-cache plugin (packages/strapi-plugin-site-cache, its README and server/config/index.js say
 * what each value does): the only place its environment is read.
 */
function siteCacheConfig(env) {
  const duration = (name, fallback) => {
    const raw = env(name, "");
    return raw === "" ? fallback : Number(raw);
  };
  return {
    // The site as the CMS reaches it, server to server (revalidations, CDN purges): SITE_INTERNAL_URL
    // where that differs from the public address (a container network), else CLIENT_URL.
    clientUrl: normaliseClientUrl(env("SITE_INTERNAL_URL", "") || env("CLIENT_URL", "")),
    revalidateSecret: env("CMS_REVALIDATE_SECRET", ""),
    cdnPurgeSecret: env("CMS_CDN_PURGE_SECRET", ""),
    timeoutMs: duration("CMS_REVALIDATE_TIMEOUT_MS", 5_000),
    retries: duration("CMS_REVALIDATE_RETRIES", 3),
    backoffMs: duration("CMS_REVALIDATE_BACKOFF_MS", 500),
    retryIntervalMs: duration("CMS_REVALIDATE_RETRY_INTERVAL_MS", 30_000),
    takedownWaitMs: duration("CMS_REVALIDATE_TAKEDOWN_WAIT_MS", 3_000),
    publishWaitMs: duration("CMS_REVALIDATE_PUBLISH_WAIT_MS", 3_000),
    batchWindowMs: duration("CMS_REVALIDATE_BATCH_WINDOW_MS", 100),
    batchMaxWaitMs: duration("CMS_REVALIDATE_BATCH_MAX_WAIT_MS", 1_000),
    purgeRetries: duration("CMS_CDN_PURGE_RETRIES", 2),
    // When the scheduler looks for due publishes and unpublishes (docs/scheduled-publishing.md):
    // a cron rule with seconds; by default at second 0 of every minute. Empty: no scheduler.
    scheduleCron: env("CMS_SCHEDULE_CRON", "0 * * * * *").trim(),
    // The site's pages form a tree: a page's fullPath is its parent's plus its slug, and moving a
    // published page leaves a redirect from its old address (docs/cms-contract.md).
    hierarchy: {
      contentType: "api::page.page",
      slugField: "slug",
      parentField: "parent",
      pathField: "fullPath",
      redirectType: "api::redirect.redirect",
    },
  };
}

/** The site-search plugin (src/plugins/site-search/, its server/config/index.js says what each value does). */
function siteSearchConfig(env) {
  const engine = env("SEARCH_ENGINE", "").trim();
  return {
    ...(engine ? { engine } : {}),
    groongaUrl: env("GROONGA_URL", "").trim(),
    groongaTimeoutMs: env.int("GROONGA_TIMEOUT_MS", 3_000),
    retryIntervalMs: env.int("SEARCH_RETRY_INTERVAL_MS", 30_000),
  };
}

/**
 * The accounts plugin (src/plugins/accounts/, its server/config/index.js says what each value does):
 * the only place its environment is read.
 */
function accountsConfig(env) {
  const text = (name) => env(name, "").trim();
  const seconds = (name, fallback) => (text(name) === "" ? fallback : Number(text(name)));
  const clientUrl = normaliseClientUrl(env("CLIENT_URL", ""));
  return {
    clientUrl,
    clientUrlSet: text("CLIENT_URL") !== "",
    siteName: text("SITE_NAME"),
    emailFrom: text("EMAIL_FROM") || defaultSender(env("SITE_NAME", ""), clientUrl),
    emailFromSet: text("EMAIL_FROM") !== "",
    emailConfirmation: parseEmailConfirmation(env("CMS_EMAIL_CONFIRMATION", "")) ?? null,
    oauthSyncSecret: env("CMS_OAUTH_SYNC_SECRET", ""),
    accountApiSecret: text("CMS_ACCOUNT_API_SECRET"),
    resetLinkTtlSeconds: seconds("CMS_RESET_LINK_TTL_SECONDS", 60 * 60),
    freshSignInSeconds: seconds("CMS_FRESH_SIGN_IN_SECONDS", 5 * 60),
    twoFactorEncryptionKey: text("TWO_FACTOR_ENCRYPTION_KEY"),
    encryptionKey: env("ENCRYPTION_KEY", ""),
    warnMailToFiles: env("NODE_ENV", "") === "production" && text("SMTP_HOST") === "",
  };
}

/**
 * Sessions are users-permissions' own (`jwtManagement: 'refresh'`: rows of admin::session in the
 * database), checked on every access by the accounts plugin
 * (src/plugins/accounts/server/users-permissions/session-check.js,
 * docs/decisions/0025-strapi-session-management.md). The site never refreshes: it keeps the access
 * token of the sign-in for the whole session, so the token, the session's idle expiry (which only a
 * refresh would move) and its absolute expiry all last as long as the longest site session may
 * (30 days, the former JWT's life; the site's own sessions last a day or a week). Ending a session
 * deletes its row, and the per-access check refuses its token at once.
 */
const SESSION_SECONDS = 30 * 24 * 60 * 60;

module.exports = ({ env }) => ({
  // The site cache is the package @cms-site/strapi-plugin-site-cache (packages/, a dependency in
  // package.json, where Strapi finds it by its name "site-cache"); its README says what each value does.
  "site-cache": {
    enabled: true,
    config: siteCacheConfig(env),
  },
  accounts: {
    enabled: true,
    resolve: "./src/plugins/accounts",
    config: accountsConfig(env),
  },
  // The site's search (src/plugins/site-search/, docs/search.md): in the CMS's database unless
  // SEARCH_ENGINE=groonga puts the index in the Groonga server at GROONGA_URL.
  "site-search": {
    enabled: true,
    resolve: "./src/plugins/site-search",
    config: siteSearchConfig(env),
  },
  // Form sections' submissions (docs/forms.md): stored, then mailed, retried while the mail provider is down.
  forms: {
    enabled: true,
    resolve: "./src/plugins/forms",
    config: {
      siteSecret: env("CMS_ACCOUNT_API_SECRET", "").trim(),
      retryIntervalMs: env.int("CMS_FORM_MAIL_RETRY_MS", 60_000),
      retryBaseSeconds: env.int("CMS_FORM_MAIL_RETRY_BASE_SECONDS", 60),
    },
  },
  email: {
    config: emailConfig(env),
  },
  // Images, video, audio and PDF only, checked by Strapi on the declared type, the extension and the
  // content; src/uploads/upload-policy.js adds what its check misses (docs/security.md, finding 41).
  upload: {
    config: {
      security: { allowedTypes: ACCEPTED_TYPES, deniedTypes: REFUSED_TYPES },
    },
  },
  "users-permissions": {
    config: {
      jwtSecret: env("JWT_SECRET"),
      jwtManagement: "refresh",
      sessions: {
        accessTokenLifespan: SESSION_SECONDS,
        idleRefreshTokenLifespan: SESSION_SECONDS,
        maxRefreshTokenLifespan: SESSION_SECONDS,
      },
      ratelimit: authRateLimit(env),
    },
  },
});
