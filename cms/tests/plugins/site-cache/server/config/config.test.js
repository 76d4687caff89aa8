"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { DEFAULTS, validator } = require("../../../../../../packages/strapi-plugin-site-cache/server/config");
const pluginsConfig = require("../../../../../config/plugins");

/** Strapi's env() as far as config/plugins.js uses it, over a plain object. */
function envOf(values) {
  const env = (name, fallback) => values[name] ?? fallback;
  env.int = (name, fallback) => (values[name] === undefined ? fallback : Number.parseInt(values[name], 10));
  env.bool = (name, fallback) => (values[name] === undefined ? fallback : values[name] === "true");
  return env;
}

const siteCache = (values) => pluginsConfig({ env: envOf({ JWT_SECRET: "x", ...values }) })["site-cache"];

test("the plugin is the installed package, enabled by its name; its config comes from the environment, read in config/plugins.js only", () => {
  const plugin = siteCache({
    CLIENT_URL: "https://www.example.com/",
    CMS_REVALIDATE_SECRET: "r",
    CMS_CDN_PURGE_SECRET: "p",
    CMS_REVALIDATE_TAKEDOWN_WAIT_MS: "500",
    CMS_REVALIDATE_RETRIES: "0",
    CMS_REVALIDATE_PUBLISH_WAIT_MS: "0",
    CMS_REVALIDATE_BATCH_WINDOW_MS: "20",
    CMS_SCHEDULE_CRON: " * * * * * * ",
  });
  assert.equal(plugin.enabled, true);
  // No `resolve`: Strapi finds the plugin among package.json's dependencies by its strapi.name.
  assert.equal(plugin.resolve, undefined);
  assert.equal(
    require("../../../../../package.json").dependencies["@cms-site/strapi-plugin-site-cache"] !== undefined,
    true,
  );
  assert.deepEqual(plugin.config, {
    clientUrl: "https://www.example.com",
    revalidateSecret: "r",
    cdnPurgeSecret: "p",
    timeoutMs: 5_000,
    retries: 0,
    backoffMs: 500,
    retryIntervalMs: 30_000,
    takedownWaitMs: 500,
    publishWaitMs: 0,
    batchWindowMs: 20,
    batchMaxWaitMs: 1_000,
    purgeRetries: 2,
    scheduleCron: "* * * * * *",
    hierarchy: {
      contentType: "api::page.page",
      slugField: "slug",
      parentField: "parent",
      pathField: "fullPath",
      redirectType: "api::redirect.redirect",
    },
  });
  validator({ ...DEFAULTS, ...plugin.config });
});

test("SITE_INTERNAL_URL: the site's address for the CMS's own calls, where it differs from CLIENT_URL (a container network)", () => {
  const plugin = siteCache({ CLIENT_URL: "https://www.example.com", SITE_INTERNAL_URL: "http://balancer/" });
  assert.equal(plugin.config.clientUrl, "http://balancer");
  assert.equal(
    siteCache({ CLIENT_URL: "https://www.example.com", SITE_INTERNAL_URL: "" }).config.clientUrl,
    "https://www.example.com",
  );
});

test("unset: the defaults (revalidation and purge off), and they are valid", () => {
  const { hierarchy, ...config } = siteCache({}).config;
  assert.deepEqual({ ...DEFAULTS, ...config }, DEFAULTS);
  validator(DEFAULTS);
  // The plugin's own default: no page hierarchy; this CMS opts in (the test above).
  assert.equal(DEFAULTS.hierarchy, null);
  assert.notEqual(hierarchy, null);
});

test("hierarchy: null or the four attribute names (and a redirect type or null); anything else stops the start", () => {
  const pages = { contentType: "api::page.page", slugField: "slug", parentField: "parent", pathField: "fullPath" };
  validator({ ...DEFAULTS, hierarchy: pages });
  validator({ ...DEFAULTS, hierarchy: { ...pages, redirectType: null } });
  for (const [hierarchy, message] of [
    [{ ...pages, slugField: "" }, /hierarchy.slugField must be a non-empty string/],
    [{ contentType: "api::page.page" }, /hierarchy.slugField/],
    [{ ...pages, redirectType: 3 }, /hierarchy.redirectType/],
    [{ ...pages, children: "x" }, /unknown key children/],
    ["api::page.page", /hierarchy must be null or/],
  ]) {
    assert.throws(() => validator({ ...DEFAULTS, hierarchy }), message);
  }
});

test("a bad value stops the start with the setting's name", () => {
  for (const [values, message] of [
    [{ CMS_REVALIDATE_TAKEDOWN_WAIT_MS: "soon" }, /takedownWaitMs must be an integer >= 0/],
    [{ CMS_REVALIDATE_BATCH_WINDOW_MS: "-1" }, /batchWindowMs must be an integer >= 0/],
    [{ CMS_REVALIDATE_RETRIES: "-1" }, /retries must be an integer >= 0/],
    [{ CMS_REVALIDATE_TIMEOUT_MS: "1.5" }, /timeoutMs must be an integer >= 0/],
  ]) {
    assert.throws(() => validator({ ...DEFAULTS, ...siteCache(values).config }), message);
  }
  assert.throws(() => validator({ ...DEFAULTS, clientUrl: "ftp://x.test" }), /clientUrl must be an http\(s\) URL/);
  assert.throws(() => validator({ ...DEFAULTS, revalidateSecret: 1 }), /revalidateSecret must be a string/);
});
