const { createHmac } = require("node:crypto");
const { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const { readOnlyTokenPermissions, TOKEN_NAME } = require("../read-only-token");

/**
 * What the seed sets up on every start, because it is configuration rather than content: the
 * development admin (only while the database has none), the front end's read-only API token
 * (its permissions: src/read-only-token.js, applied on every start) and the removal of Strapi's unused default tokens. Each one only writes
 * what is missing or drifted, so a start over a set-up database changes nothing.
 */

function tokenFile() {
  return path.resolve(__dirname, "../..", process.env.CMS_READONLY_TOKEN_FILE || ".tmp/frontend-readonly-token");
}

async function seedAdmin(strapi) {
  const users = strapi.service("admin::user");
  if (await users.exists()) return;
  const superAdmin = await strapi.service("admin::role").getSuperAdmin();
  await users.create({
    email: process.env.CMS_ADMIN_EMAIL || "admin@example.com",
    firstname: "Local",
    lastname: "Admin",
    password: process.env.CMS_ADMIN_PASSWORD || "Admin12345",
    isActive: true,
    roles: superAdmin ? [superAdmin.id] : [],
    registrationToken: null,
  });
  strapi.log.info("[seed] created the development admin user");
}

/**
 * The read-only token. Strapi keeps only a hash of the key, so the plain key lives in a file
 * (CMS_READONLY_TOKEN_FILE, mode 0600). Kept as is while that file still holds its key;
 * otherwise (no token, no file, or a key that no longer matches) the token is created anew
 * and the file rewritten, with the permissions derived from the content types' declarations
 * (src/read-only-token.js; which also puts them back on every start if they drifted).
 */
async function seedReadOnlyToken(strapi) {
  const file = tokenFile();
  const tokens = apiTokenService(strapi);
  const existing = await strapi.db
    .query("admin::api-token")
    .findOne({ where: { name: TOKEN_NAME }, populate: ["permissions"] });
  const saved = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  if (existing && saved) {
    const salt = strapi.config.get("admin.apiToken.salt");
    const hash =
      typeof tokens.hash === "function" ? tokens.hash(saved) : createHmac("sha512", salt).update(saved).digest("hex");
    if (hash === existing.accessKey) return;
  }
  if (existing) await tokens.revoke(existing.id);
  const created = await tokens.create({
    name: TOKEN_NAME,
    description: "The front end reads public content with this token (CMS_REST_READONLY_API_KEY).",
    type: "custom",
    lifespan: null,
    permissions: readOnlyTokenPermissions(strapi),
  });
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${created.accessKey}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  strapi.log.info(`[seed] read-only API token written to ${file}`);
}

/**
 * On a fresh database Strapi creates two API tokens of its own, "Read Only" (which can also
 * read users) and "Full Access". Nothing here uses them: the demo removes them while they are
 * still unused, so the only content-API token is the front end's.
 */
async function removeUnusedDefaultTokens(strapi) {
  const defaults = await strapi.db.query("admin::api-token").findMany({
    where: {
      $or: [
        { name: "Read Only", type: "read-only" },
        { name: "Full Access", type: "full-access" },
      ],
      lastUsedAt: null,
    },
    select: ["id", "name"],
  });
  for (const token of defaults) {
    await apiTokenService(strapi).revoke(token.id);
    strapi.log.info(`[seed] removed Strapi's unused default API token "${token.name}"`);
  }
}

function apiTokenService(strapi) {
  return strapi.service("admin::api-token-content-api") ?? strapi.service("admin::api-token");
}

module.exports = { seedAdmin, seedReadOnlyToken, removeUnusedDefaultTokens };
