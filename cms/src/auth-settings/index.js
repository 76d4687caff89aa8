"use strict";

const { planAuthSettings, normaliseClientUrl } = require("./settings");

/**
 * Puts the users-permissions settings that are configuration (not content) into the plugin
 * store on every start: registration on, email confirmation off, default role authenticated,
 * reset-password link `${CLIENT_URL}/reset-password?code=…`, and (when EMAIL_FROM is set) the
 * sender of the auth emails. Only what differs is written, so a restart changes nothing; an
 * admin's edit of one of these values in the admin panel is undone on the next start.
 */
async function applyAuthSettings(strapi) {
  const store = strapi.store({ type: "plugin", name: "users-permissions" });
  const stored = {
    advanced: await store.get({ key: "advanced" }),
    email: await store.get({ key: "email" }),
  };
  const plan = planAuthSettings(stored, {
    clientUrl: normaliseClientUrl(process.env.CLIENT_URL),
    emailFrom: process.env.EMAIL_FROM,
  });
  if (plan.advanced) await store.set({ key: "advanced", value: plan.advanced });
  if (plan.email) await store.set({ key: "email", value: plan.email });
  for (const change of plan.changes) strapi.log.info(`[auth-settings] ${change}`);
  warnAboutOAuthSyncSecret(strapi);
  if (process.env.NODE_ENV === "production" && !process.env.SMTP_HOST) {
    strapi.log.warn(
      "[mail] SMTP_HOST is not set: emails (password reset) are written to files in CMS_MAIL_DIR, not sent.",
    );
  }
}

function warnAboutOAuthSyncSecret(strapi) {
  const secret = process.env.CMS_OAUTH_SYNC_SECRET;
  if (!secret) {
    strapi.log.warn(
      "[oauth-sync] CMS_OAUTH_SYNC_SECRET is not set: POST /api/oauth-sync answers 503 " +
        "(OAuth sign-in on the front end cannot get a CMS user).",
    );
  } else if (/\s/.test(secret.trim())) {
    strapi.log.warn(
      "[oauth-sync] CMS_OAUTH_SYNC_SECRET contains whitespace: a Bearer token cannot carry it, " +
        "every call will be refused.",
    );
  } else if (secret.trim().length < 32) {
    strapi.log.warn(
      "[oauth-sync] CMS_OAUTH_SYNC_SECRET is shorter than 32 characters; " +
        "use a long random value (openssl rand -hex 32).",
    );
  }
}

module.exports = { applyAuthSettings };
