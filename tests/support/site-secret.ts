/**
 * CMS_ACCOUNT_API_SECRET of the test runs: strapiSite (tests/support/strapi-site.ts) and the e2e
 * global setup give it to both the CMS and the site, so every test against the real Strapi runs
 * with the CMS's account API guard on (cms/src/plugins/accounts/server/middlewares/account-api-guard/, security finding 24).
 */
export const TEST_ACCOUNT_API_SECRET = "test-account-api-secret-0123456789abcdef";

/**
 * The header the site sends on its account calls. A test that calls the CMS's /api/auth/* itself
 * (set-up: registering a user, reading a JWT) adds these to its request headers, as the site would.
 */
export const SITE_SECRET_HEADERS: Readonly<Record<string, string>> = { "x-site-secret": TEST_ACCOUNT_API_SECRET };
