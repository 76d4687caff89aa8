const { createHmac } = require("node:crypto");
const { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const content = require("./demo-content");

/**
 * Seeds a fresh CMS with the demo site, an admin for local development and the front end's
 * read-only API token. Idempotent: everything is looked up first and only what is missing
 * is created, so a second run changes nothing.
 */

const PAGE = "api::page.page";
const TOKEN_NAME = "frontend-readonly";
/** Exactly what the front end reads; nothing about users. */
const TOKEN_PERMISSIONS = [
  "api::page.page.find",
  "api::page.page.findOne",
  "api::redirect.redirect.find",
  "api::redirect.redirect.findOne",
  "api::navbar.navbar.find",
  "api::footer.footer.find",
  "api::error-page.error-page.find",
  "plugin::i18n.locales.listLocales",
];

function shouldSeed() {
  const flag = process.env.CMS_SEED_DEMO;
  if (flag === "true" || flag === "false") return flag === "true";
  return process.env.NODE_ENV !== "production";
}

function tokenFile() {
  return path.resolve(__dirname, "../..", process.env.CMS_READONLY_TOKEN_FILE || ".tmp/frontend-readonly-token");
}

async function seedLocales(strapi) {
  const locales = strapi.plugin("i18n").service("locales");
  for (const { code, name } of content.locales.others) {
    if (!(await locales.findByCode(code))) await locales.create({ code, name });
  }
  if ((await locales.getDefaultLocale()) !== content.locales.default) {
    await locales.setDefaultLocale({ code: content.locales.default });
  }
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

async function findDraft(strapi, where) {
  return strapi.db.query(PAGE).findOne({ where: { ...where, publishedAt: null }, select: ["documentId", "fullPath"] });
}

function expectedFullPath(pageDef, byKey) {
  const parts = [];
  for (let current = pageDef; current; current = current.parent ? byKey.get(current.parent) : null) {
    if (current.slug) parts.unshift(current.slug);
  }
  return `/${parts.join("/")}`;
}

/** The uploaded file's fields an image block of the blocks editor carries (what the admin puts there). */
const IMAGE_BLOCK_FIELDS = [
  "id",
  "documentId",
  "name",
  "alternativeText",
  "caption",
  "width",
  "height",
  "formats",
  "hash",
  "ext",
  "mime",
  "size",
  "url",
  "previewUrl",
  "provider",
  "provider_metadata",
  "createdAt",
  "updatedAt",
];

/**
 * The demo image (og:image of every seeded page, and the company page's image block), uploaded
 * once: found again by its name. Strapi makes its formats (thumbnail, small, medium, large).
 */
async function seedImage(strapi) {
  const { name, alternativeText, file } = content.shareImage;
  const files = strapi.db.query("plugin::upload.file");
  const existing = await files.findOne({ where: { name }, select: IMAGE_BLOCK_FIELDS });
  if (existing) return existing;
  const filepath = path.join(__dirname, file);
  const [uploaded] = await strapi
    .plugin("upload")
    .service("upload")
    .upload({
      data: { fileInfo: { name, alternativeText } },
      files: { filepath, originalFilename: name, mimetype: "image/png", size: statSync(filepath).size },
    });
  strapi.log.info(`[seed] share image ${uploaded.url}`);
  return files.findOne({ where: { id: uploaded.id }, select: IMAGE_BLOCK_FIELDS });
}

/** The page's fields in one locale: its SEO component carrying the image, its body's image blocks showing it. */
function pageData(fields, image) {
  const body = fields.body?.map((block) =>
    block.type === "image" && block.image === content.SEED_IMAGE ? { ...block, image } : block,
  );
  return { ...fields, ...(body ? { body } : {}), seo: { ...fields.seo, shareImage: image.id } };
}

async function seedPages(strapi, image) {
  const byKey = new Map(content.pages.map((pageDef) => [pageDef.key, pageDef]));
  const documentIds = new Map();
  const documents = strapi.documents(PAGE);
  for (const pageDef of content.pages) {
    const fullPath = expectedFullPath(pageDef, byKey);
    const parentId = pageDef.parent ? documentIds.get(pageDef.parent) : null;
    const existing = await findDraft(strapi, { fullPath, locale: "en" });
    let documentId = existing?.documentId;
    if (!documentId) {
      const created = await documents.create({
        locale: "en",
        data: {
          ...pageData(pageDef.en, image),
          slug: pageDef.slug || null,
          ...(parentId ? { parent: { connect: [{ documentId: parentId, locale: "en" }] } } : {}),
        },
      });
      documentId = created.documentId;
      await documents.publish({ documentId, locale: "en" });
      strapi.log.info(`[seed] page ${fullPath} (en)`);
    }
    documentIds.set(pageDef.key, documentId);

    if (pageDef.de && !(await findDraft(strapi, { documentId, locale: "de" }))) {
      await documents.update({
        documentId,
        locale: "de",
        data: {
          ...pageData(pageDef.de, image),
          slug: pageDef.slug || null,
          ...(parentId ? { parent: { connect: [{ documentId: parentId, locale: "de" }] } } : {}),
        },
      });
      await documents.publish({ documentId, locale: "de" });
      strapi.log.info(`[seed] page ${fullPath} (de)`);
    }
  }
}

/** A single type's entry in each locale that has none yet; published, when the type has draft & publish. */
async function seedSingleType(strapi, uid, dataByLocale) {
  const documents = strapi.documents(uid);
  const publish = Boolean(strapi.contentType(uid)?.options?.draftAndPublish);
  for (const [locale, data] of Object.entries(dataByLocale)) {
    if (await documents.findFirst({ locale })) continue;
    const any = await strapi.db.query(uid).findOne({ select: ["documentId"] });
    const written = any
      ? await documents.update({ documentId: any.documentId, locale, data })
      : await documents.create({ locale, data });
    if (publish) await documents.publish({ documentId: written.documentId, locale });
    strapi.log.info(`[seed] ${uid} (${locale})`);
  }
}

async function seedRedirects(strapi) {
  const documents = strapi.documents("api::redirect.redirect");
  for (const redirect of content.redirects) {
    const existing = await strapi.db.query("api::redirect.redirect").findOne({ where: { source: redirect.source } });
    if (existing) continue;
    const created = await documents.create({ data: redirect });
    await documents.publish({ documentId: created.documentId });
    strapi.log.info(`[seed] redirect ${redirect.source}`);
  }
}

/**
 * The read-only token. Strapi keeps only a hash of the key, so the plain key lives in a file
 * (CMS_READONLY_TOKEN_FILE, mode 0600). Kept as is while that file still holds its key;
 * otherwise (no token, no file, or a key that no longer matches) the token is created anew
 * and the file rewritten. Its permissions are put back to TOKEN_PERMISSIONS if they drifted.
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
    if (hash === existing.accessKey) {
      const current = (existing.permissions ?? []).map((p) => p.action).sort();
      if (existing.type !== "custom" || current.join() !== [...TOKEN_PERMISSIONS].sort().join()) {
        await tokens.update(existing.id, { type: "custom", permissions: TOKEN_PERMISSIONS });
        strapi.log.info(`[seed] read-only API token: permissions reset to ${TOKEN_PERMISSIONS.join(", ")}`);
      }
      return;
    }
  }
  if (existing) await tokens.revoke(existing.id);
  const created = await tokens.create({
    name: TOKEN_NAME,
    description: "The front end reads public content with this token (CMS_REST_READONLY_API_KEY).",
    type: "custom",
    lifespan: null,
    permissions: TOKEN_PERMISSIONS,
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

async function seedDemoSite(strapi) {
  await seedLocales(strapi);
  await seedAdmin(strapi);
  await seedPages(strapi, await seedImage(strapi));
  await seedSingleType(
    strapi,
    "api::navbar.navbar",
    Object.fromEntries(Object.entries(content.navbar).map(([locale, links]) => [locale, { links }])),
  );
  await seedSingleType(strapi, "api::footer.footer", content.footer);
  await seedSingleType(strapi, "api::error-page.error-page", content.errorPage);
  await seedRedirects(strapi);
  await removeUnusedDefaultTokens(strapi);
  await seedReadOnlyToken(strapi);
}

module.exports = { seedDemoSite, shouldSeed, TOKEN_PERMISSIONS };
