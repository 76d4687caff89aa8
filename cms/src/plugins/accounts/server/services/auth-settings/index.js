"use strict";

const { planAuthSettings } = require("./settings");

/** Marks a database whose users-permissions settings got this project's defaults (the first start). */
const APPLIED_KEY = "site_defaults_applied";

/**
 * Puts the users-permissions settings that are configuration (not content) into the plugin
 * store (see planAuthSettings): on the first start every default (registration on, email
 * confirmation as the plugin's emailConfirmation (CMS_EMAIL_CONFIRMATION) says or off, default role authenticated, the reset and
 * confirmation links on CLIENT_URL, the sender); on later starts only what an environment
 * variable sets explicitly (cms/config/plugins.js), so an admin's change in the panel survives a restart. Only what
 * differs is written, and each change is logged.
 */
async function applyAuthSettings(strapi, config) {
  const store = strapi.store({ type: "plugin", name: "users-permissions" });
  const stored = {
    advanced: await store.get({ key: "advanced" }),
    email: await store.get({ key: "email" }),
  };
  const firstStart = !(await store.get({ key: APPLIED_KEY }));
  const plan = planAuthSettings(stored, {
    clientUrl: config.clientUrl,
    clientUrlSet: config.clientUrlSet,
    emailFrom: config.emailFrom,
    emailFromSet: config.emailFromSet,
    emailConfirmation: config.emailConfirmation ?? undefined,
    firstStart,
  });
  if (plan.advanced) await store.set({ key: "advanced", value: plan.advanced });
  if (plan.email) await store.set({ key: "email", value: plan.email });
  if (firstStart) await store.set({ key: APPLIED_KEY, value: { at: new Date().toISOString() } });
  for (const change of plan.changes) strapi.log.info(`[auth-settings] ${change}`);
  warnAboutOAuthSyncSecret(strapi, config.oauthSyncSecret);
  if (config.warnMailToFiles) {
    strapi.log.warn(
      "[mail] SMTP_HOST is not set: emails (password reset, email confirmation) are written to files in " +
        "CMS_MAIL_DIR, not sent.",
    );
  }
}

function warnAboutOAuthSyncSecret(strapi, secret) {
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

/**
 * `strapi.plugin("accounts").service("auth-settings")`: apply() on every start (src/index.js, after users-permissions' bootstrap),
 * with the plugin's configuration.
 */
module.exports = ({ strapi }) => ({
  apply: () => applyAuthSettings(strapi, strapi.config.get("plugin::accounts")),
});
