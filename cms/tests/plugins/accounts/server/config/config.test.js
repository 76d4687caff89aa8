"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { DEFAULTS, validator } = require("../../../../../src/plugins/accounts/server/config");
const plugins = require("../../../../../config/plugins");

const valid = { ...DEFAULTS, encryptionKey: "strapi-encryption-key" };
const refuses = (patch, pattern) => assert.throws(() => validator({ ...valid, ...patch }), pattern);

test("the defaults with a key are valid", () => {
  assert.doesNotThrow(() => validator(valid));
});

test("each value is checked, with the variable to fix in the message", () => {
  refuses({ clientUrl: "ftp://x" }, /http\(s\)/);
  refuses({ clientUrl: "https://x/" }, /must not end with \//);
  refuses({ accountApiSecret: "too-short" }, /at least 16 characters.*CMS_ACCOUNT_API_SECRET/);
  refuses({ resetLinkTtlSeconds: 1.5 }, /CMS_RESET_LINK_TTL_SECONDS/);
  refuses({ resetLinkTtlSeconds: Number.NaN }, /CMS_RESET_LINK_TTL_SECONDS/);
  refuses({ freshSignInSeconds: 9 }, /CMS_FRESH_SIGN_IN_SECONDS/);
  refuses({ freshSignInSeconds: 3601 }, /CMS_FRESH_SIGN_IN_SECONDS/);
  refuses({ emailConfirmation: "yes" }, /CMS_EMAIL_CONFIRMATION/);
  refuses({ twoFactorEncryptionKey: "short" }, /TWO_FACTOR_ENCRYPTION_KEY must be 32 bytes/);
  refuses({ encryptionKey: "" }, /TWO_FACTOR_ENCRYPTION_KEY or ENCRYPTION_KEY/);
  assert.doesNotThrow(() => validator({ ...valid, resetLinkTtlSeconds: 0, freshSignInSeconds: 10 }));
});

/** cms/config/plugins.js's accounts config for an environment (Strapi's env() reduced to what it uses). */
function accountsConfigFor(vars) {
  const env = (name, fallback) => (vars[name] === undefined ? fallback : vars[name]);
  env.int = (name, fallback) => (vars[name] === undefined ? fallback : Number.parseInt(vars[name], 10));
  env.bool = (name, fallback) => (vars[name] === undefined ? fallback : vars[name] === "true");
  return plugins({ env }).accounts.config;
}

test("cms/config/plugins.js is the one place the environment is read: variables become the plugin's values", () => {
  const config = accountsConfigFor({
    CLIENT_URL: "https://www.example.com/",
    SITE_NAME: "Ex",
    CMS_EMAIL_CONFIRMATION: "true",
    CMS_ACCOUNT_API_SECRET: ` ${"s".repeat(16)} `,
    CMS_RESET_LINK_TTL_SECONDS: "0",
    CMS_FRESH_SIGN_IN_SECONDS: "30",
    ENCRYPTION_KEY: "k",
    NODE_ENV: "production",
  });
  assert.equal(config.clientUrl, "https://www.example.com");
  assert.equal(config.clientUrlSet, true);
  assert.equal(config.emailFrom, "Ex <no-reply@example.com>");
  assert.equal(config.emailFromSet, false);
  assert.equal(config.emailConfirmation, true);
  assert.equal(config.accountApiSecret, "s".repeat(16));
  assert.equal(config.resetLinkTtlSeconds, 0);
  assert.equal(config.freshSignInSeconds, 30);
  assert.equal(config.warnMailToFiles, true);
  assert.doesNotThrow(() => validator({ ...DEFAULTS, ...config }));
  const unset = accountsConfigFor({});
  assert.equal(unset.emailConfirmation, null);
  assert.equal(unset.resetLinkTtlSeconds, 3600);
  assert.equal(unset.freshSignInSeconds, 300);
  assert.throws(() => accountsConfigFor({ CMS_EMAIL_CONFIRMATION: "maybe" }), /must be "true" or "false"/);
});
