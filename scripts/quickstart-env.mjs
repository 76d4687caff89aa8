// The configuration `npm run quickstart` (scripts/quickstart.mjs) gives the CMS and the
// production site: the secrets both sides share are generated on the first run into an
// ignored file (.env.quickstart) and read back on later runs, so a restart keeps sessions
// and the revalidation secret; and the banner it prints once both are up. Kept apart from the
// script that starts processes so tests can check them (tests/integration/quickstart-env.test.ts,
// quickstart-banner.test.ts).
import { randomBytes } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";

/** Secrets shared by the CMS and the site; each 64 hex characters (no whitespace, no quoting). */
export const SHARED_SECRETS = [
  // The CMS sends it to the site's POST /api/cms-revalidate after every publish.
  "CMS_REVALIDATE_SECRET",
  // The site's session cookies (production requires 32+ characters).
  "SESSION_AUTH_SECRET",
  // The CMS admin's "purge CDN" action forwards to the site's POST /api/cdn-purge with it.
  "CMS_CDN_PURGE_SECRET",
  // Lets the site create CMS users after an OAuth sign-in (once a provider is configured).
  "CMS_OAUTH_SYNC_SECRET",
  // The CMS admin's Preview tab opens the site's GET /api/preview?secret=… with it (draft pages).
  "CMS_PREVIEW_SECRET",
  // The site sends it (X-Site-Secret) on its account calls; the CMS's /api/auth/* answers no one else.
  "CMS_ACCOUNT_API_SECRET",
];

const HEADER = [
  "# Written by `npm run quickstart` (scripts/quickstart-env.mjs) on its first run and read on",
  "# every later run: secrets shared by the CMS and the production site it starts. For this",
  "# machine only (the file is git-ignored). Variables added here (GITHUB_CLIENT_ID=..., REDIS_URL=...)",
  "# are given to both processes; the shell's environment wins over this file.",
  "",
].join("\n");

const newSecret = () => randomBytes(32).toString("hex");

/** KEY=value lines; `#` comments and blank lines skipped; one level of matching quotes removed. */
export function parseEnvText(text) {
  const values = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    let value = match[2];
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0])
      value = value.slice(1, -1);
    values[match[1]] = value;
  }
  return values;
}

/**
 * Reads `file`, creating it (mode 0600) or appending whatever shared secret it lacks.
 * Returns every variable in it and the names generated now (empty on a run that reuses them).
 */
export function ensureQuickstartEnv(file) {
  let text = null;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  const values = text === null ? {} : parseEnvText(text);
  const generated = SHARED_SECRETS.filter((name) => !values[name]);
  if (generated.length > 0) {
    const lines = generated.map((name) => {
      values[name] = newSecret();
      return `${name}=${values[name]}`;
    });
    if (text === null) writeFileSync(file, `${HEADER}${lines.join("\n")}\n`, { mode: 0o600, flag: "wx" });
    else appendFileSync(file, `${text.endsWith("\n") || text === "" ? "" : "\n"}${lines.join("\n")}\n`);
  }
  return { values, generated };
}

/**
 * The environments of the two processes. The site is a production build (page cache on) that
 * reads the CMS with the read-only token; the CMS runs in development mode (demo seed, the
 * development admin login, its own secrets in cms/.env) and calls the site's revalidation
 * route at CLIENT_URL with the shared secret. `shell` wins over `fileValues`; the addresses
 * and NODE_ENV are the script's.
 */
export function quickstartEnvironments({ shell, fileValues, sitePort, cmsPort, readonlyToken }) {
  const given = Object.fromEntries(Object.entries(shell).filter(([, value]) => value !== undefined && value !== ""));
  const shared = { ...fileValues, ...given };
  const siteUrl = `http://localhost:${sitePort}`;
  const cmsUrl = `http://127.0.0.1:${cmsPort}`;
  return {
    siteUrl,
    cmsUrl,
    cms: {
      ...shared,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(cmsPort),
      CLIENT_URL: siteUrl,
    },
    site: {
      ...shared,
      NODE_ENV: "production",
      // Loopback only: this is a local demonstration, not a deployment.
      HOST: "127.0.0.1",
      PORT: String(sitePort),
      APP_PUBLIC_URL: siteUrl,
      CMS_URL: cmsUrl,
      CMS_REST_READONLY_API_KEY: readonlyToken,
    },
  };
}

const RULE = "─".repeat(78);

/** The site's log line when its warm start is over (@cms-site/page-cache, warm-start.ts), done or skipped. */
export const WARM_START_OVER = /\[cache\] warm start: /;

/**
 * Whether the site warms its cache as it starts: CACHE_WARM_PAGES, 200 in production unless set
 * (app/lib/env.server.ts), 0 turns it off.
 */
export function warmStartEnabled(siteEnv) {
  return Number(siteEnv.CACHE_WARM_PAGES ?? 200) > 0;
}

/** What the first curl of /company gets, by the state of the warm start when the banner is printed. */
const FIRST_CURL = {
  // The site has requested its published pages itself: they are in its cache.
  done: ["    HIT: as it started, the site requested its published pages itself (warm start)."],
  off: ["    MISS (rendered for it), then HIT: the warm start is off (CACHE_WARM_PAGES=0)."],
  // No sign of its end yet (a long list of pages, or a LOG_LEVEL above info).
  running: [
    "    HIT once the site's warm start is over (it requests its published pages itself",
    "    as it starts; its log says `[cache] warm start: N page(s) requested`).",
  ],
};

/**
 * What the quick start prints once both sides are up. Its words are checked against the running
 * site (tests/integration/quickstart-banner.test.ts): the warm start (@cms-site/page-cache, warm-start.ts)
 * caches the published pages, so the first curl of /company is a HIT, not the MISS this once
 * promised; a MISS is what a URL nobody has asked for yet gets, shown here with a 404.
 * `warmStart`: "done" (its log line was seen), "off" or "running".
 */
export function quickstartBanner({ siteUrl, cmsUrl, email, password, warmStart }) {
  return [
    "",
    RULE,
    `  Site (production build, page cache on):  ${siteUrl}`,
    `  CMS admin:                               ${cmsUrl}/admin`,
    `  Development admin login:                 ${email} / ${password}`,
    "",
    `  Try it: curl -sI ${siteUrl}/company | grep x-cache`,
    ...FIRST_CURL[warmStart],
    `    A URL nobody asked for yet is a MISS, then a HIT: ${siteUrl}/no-such-page`,
    "    (a 404, cached like a page).",
    '  Edit and publish the page "Company" in the admin: the next request is STALE (the previous',
    "  version, while it renders again), the ones after it show your change (HIT).",
    "  Secrets: .env.quickstart. Ctrl-C stops both.",
    RULE,
    "",
  ].join("\n");
}
