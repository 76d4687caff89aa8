/**
 * The front end's read-only API token, `frontend-readonly` (docs/operations.md, "The read-only
 * token"). Its permissions follow from the content types' declarations (the site-cache plugin's
 * `site-types` service: `find` on every type the site reads, `findOne` on its collection types, and
 * the locales list), so a new type the site reads is readable by declaring it, nowhere else.
 *
 * alignReadOnlyToken runs on every start, in every environment (src/index.js): an existing token
 * whose permissions drifted is put back to them; none (production: an operator creates it once) is
 * logged, and the CMS starts. The development seed creates it (src/seed/access.js).
 */

const TOKEN_NAME = "frontend-readonly";

/** The site's search (the site-search plugin's content-API route, docs/search.md). */
const SEARCH_ACTION = "plugin::site-search.search.query";

/** The token's actions, sorted. */
function readOnlyTokenPermissions(strapi) {
  return [...strapi.plugin("site-cache").service("site-types").tokenPermissions(), SEARCH_ACTION].sort();
}

function apiTokenService(strapi) {
  return strapi.service("admin::api-token-content-api") ?? strapi.service("admin::api-token");
}

/**
 * Puts the token's permissions (and type: custom) back to readOnlyTokenPermissions() when they
 * differ. Resolves with `"missing"`, `"aligned"` (changed) or `"unchanged"`; never rejects (a
 * failure is logged: the CMS starts, the site keeps whatever the token could read).
 */
async function alignReadOnlyToken(strapi) {
  try {
    const wanted = readOnlyTokenPermissions(strapi);
    const existing = await strapi.db
      .query("admin::api-token")
      .findOne({ where: { name: TOKEN_NAME }, populate: ["permissions"] });
    if (!existing) {
      const log = process.env.NODE_ENV === "production" ? strapi.log.error : strapi.log.warn;
      log.call(
        strapi.log,
        `[read-only token] there is no API token named "${TOKEN_NAME}": the front end cannot read the CMS. ` +
          `Create a Custom token with that name once (Settings → API Tokens; docs/operations.md); ` +
          `its permissions are set on the next start.`,
      );
      return "missing";
    }
    const current = (existing.permissions ?? []).map((p) => p.action).sort();
    if (existing.type === "custom" && current.join() === wanted.join()) return "unchanged";
    await apiTokenService(strapi).update(existing.id, { type: "custom", permissions: wanted });
    strapi.log.info(`[read-only token] "${TOKEN_NAME}": permissions set to ${wanted.join(", ")}`);
    return "aligned";
  } catch (error) {
    strapi.log.error(`[read-only token] could not align "${TOKEN_NAME}": ${error?.stack ?? error}`);
    return "failed";
  }
}

module.exports = { TOKEN_NAME, readOnlyTokenPermissions, alignReadOnlyToken };
