/**
 * Which integration files may run beside another one (vitest.config.ts: the project
 * `integration-pairs`, two files at a time) and which run alone (`integration-alone`, one file
 * at a time, after the pairs). A file named in neither list runs alone: a new file pairs only
 * once someone has read it and written it into PAIRED. docs/testing.md says how to decide.
 *
 * A file may pair when nothing it asserts depends on how fast the machine is (answers compared
 * in time, a deadline a busy neighbour could push it past, a clock step to hit), it binds only
 * free ports and writes only temporary folders, and on the shared Strapi
 * (tests/support/shared-cms.ts) it reads or writes only documents and users of its own: another
 * file's writes may land there at any moment while it runs.
 */

/** Files that run alone, and why: each reason is one a neighbour's CPU or writes would break. */
export const RUNS_ALONE: Record<string, string> = {
  "add-a-content-type.test.ts":
    "keeps both cores busy by design (the copy's typecheck and CMS tests side by side, tests/support/project-copy.ts)",
  "auth-bot-check.test.ts":
    "a form sent 'at once' must arrive within the 1.5 s minimum fill time of being shown; a neighbour can push it past",
  "auth-enumeration.test.ts": "compares answer times (known against unknown addresses) to a few milliseconds",
  "auth-lockout.test.ts":
    "the right password 60 ms after 50 guesses must arrive while the CMS still checks them (the review's timing)",
  "auth-two-factor.test.ts": "waits for TOTP step boundaries and must act within one 30 s step",
  "cms-cluster-postgres.test.ts":
    "compares answer times (the sign-in timing equaliser), acts within TOTP steps, and runs two Strapis and PostgreSQL",
  "cms-revalidation-cms.test.ts": "asserts a publish answers within 2 s while retries run on 400 ms to 2 s windows",
  "cms-two-factor.test.ts": "computes codes for the current and next TOTP steps and must use them within the step",
  "fault-drills.test.ts": "asserts 100 answers within 10 s against 500 ms CMS timeouts",
  "operational-routes.test.ts": "40 probes must all fall inside the 1 s for which a health result is reused",
  "forms.test.ts":
    "posts bursts through the rate limit and stops and starts its own SMTP server while the CMS retries; kept off a neighbour's CPU",
  "scheduled-publishing.test.ts":
    "its CMS ticks every second and each wait's deadline is computed from a schedule a few seconds ahead",
  "packages-outside.test.ts":
    "npm-installs a whole Strapi 5 project (about half a minute of one core's disk and CPU) before its own Strapi starts",
  "warm-start.test.ts":
    "on the shared Strapi, checks the newest articles of each locale: another file publishing one meanwhile changes them",
};

/** Files that may run beside another (read, and found to meet the rules above). */
export const PAIRED: string[] = [
  "admin-build-sources.test.ts",
  "auth-cms-down.test.ts",
  "auth-email-change.test.ts",
  "auth-email-confirmation.test.ts",
  "auth-hardening.test.ts",
  "auth-password-sessions.test.ts",
  "auth-rate-limit-ipv6.test.ts",
  "auth-reset-expiry.test.ts",
  "auth-session-control.test.ts",
  "auth.test.ts",
  "cache-key-attacks.test.ts",
  "cache-real-traffic.test.ts",
  "cdn-publish.test.ts",
  "cdn-purge-varnish.test.ts",
  "cms-account-api-guard.test.ts",
  "cms-account-refusal-codes.test.ts",
  "cms-admin-grants.test.ts",
  "cms-admin-permission.test.ts",
  "cms-admin-truth.test.ts",
  "cms-alt-text.test.ts",
  "cms-articles.test.ts",
  "cms-auth-mail.test.ts",
  "cms-auth-oauth-sync.test.ts",
  "cms-cdn-purge.test.ts",
  "cms-editor-locales.test.ts",
  "cms-failure.test.ts",
  "cms-media-and-error-page.test.ts",
  "cms-publish-over-404.test.ts",
  "cms-revalidate-route.test.ts",
  "cms-revalidation-signed-failures.test.ts",
  "cms-sections.test.ts",
  "cms-seed.test.ts",
  "cms-sitemap-parts.test.ts",
  "cms-takedown.test.ts",
  "cms-upgrade.test.ts",
  "cms-upload-active-content.test.ts",
  "cookie-prefixes.test.ts",
  "favicon.test.ts",
  "filtered-listing.test.ts",
  "hostile-input.test.ts",
  "image-variants.test.ts",
  "invalidation-clocks.test.ts",
  "locales.test.ts",
  "multi-instance.test.ts",
  "no-js-pages.test.ts",
  "node-runtime.test.ts",
  "page-cache.test.ts",
  // Its own processes (a stand-in CMS, the fixture app in a temporary folder), no Strapi, no timing.
  "page-cache-package.test.ts",
  "page-links.test.ts",
  "preview.test.ts",
  "quickstart-banner.test.ts",
  "quickstart-env.test.ts",
  "regeneration-lock.test.ts",
  "request-canonical.test.ts",
  "request-log.test.ts",
  "revalidation-exact.test.ts",
  "seeded-site-links.test.ts",
  "seo.test.ts",
  "site-search-groonga.test.ts",
  "site-search-limits.test.ts",
  "site-search.test.ts",
  "sitemap-index.test.ts",
  "startup.test.ts",
  "takedown.test.ts",
];

const both = PAIRED.filter((file) => file in RUNS_ALONE);
if (both.length) throw new Error(`tests/support/integration-groups.ts: both paired and alone: ${both.join(", ")}`);

export const integrationDir = "tests/integration";
export const pairedFiles = PAIRED.map((file) => `${integrationDir}/${file}`);
