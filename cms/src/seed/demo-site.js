const { statSync } = require("node:fs");
const path = require("node:path");

const content = require("./demo-content");

/**
 * The demo site's content (locales, image, pages, navbar, footer, error page, redirects), written
 * ONCE, into a database that has none, together with a marker in Strapi's core store, in one
 * transaction: a start that crashes half-way leaves neither, and the next start seeds again.
 * After that the content is the editors': a later start never looks at it again, so a demo page
 * an editor moved, renamed or deleted stays that way (before the marker, the seed looked pages up
 * by path and re-created a moved one, whose German twin then clashed and stopped the CMS).
 *
 * A database that has content but no marker (installed before the marker existed) counts as
 * seeded: the marker is written and nothing else.
 */

const PAGE = "api::page.page";
const MARKER = { type: "core", name: "demo-seed", key: "content" };
/** What the demo seeds: any row of these means the database is not empty. */
const CONTENT_TYPES = [
  PAGE,
  "api::redirect.redirect",
  "api::navbar.navbar",
  "api::footer.footer",
  "api::error-page.error-page",
  "plugin::upload.file",
];

async function seedDemoSiteOnce(strapi) {
  const marker = strapi.store({ type: MARKER.type, name: MARKER.name });
  const seeded = await marker.get({ key: MARKER.key });
  if (seeded) return { seeded: false, marker: seeded };

  if (await hasContent(strapi)) {
    const value = { adoptedAt: new Date().toISOString() };
    await marker.set({ key: MARKER.key, value });
    strapi.log.info("[seed] the database already has content: taken as seeded, the demo content is not added");
    return { seeded: false, marker: value };
  }

  const value = await strapi.db.transaction(async () => {
    await seedLocales(strapi);
    const image = await seedImage(strapi);
    const articleIds = await seedBlog(strapi, image);
    const pageIds = await seedPages(strapi, image);
    const refs = { page: pageIds, article: articleIds };
    const links = (entries) =>
      Object.fromEntries(entries.map(([locale, list]) => [locale, withReferences({ links: list }, refs, locale)]));
    await seedSingleType(strapi, "api::navbar.navbar", links(Object.entries(content.navbar)));
    await seedSingleType(
      strapi,
      "api::footer.footer",
      Object.fromEntries(
        Object.entries(content.footer).map(([locale, data]) => [locale, withReferences(data, refs, locale)]),
      ),
    );
    await seedSingleType(strapi, "api::error-page.error-page", content.errorPage);
    await seedRedirects(strapi);
    const written = { seededAt: new Date().toISOString() };
    await marker.set({ key: MARKER.key, value: written });
    return written;
  });
  strapi.log.info("[seed] demo content written (once: later starts leave the content to the editors)");
  return { seeded: true, marker: value };
}

async function hasContent(strapi) {
  for (const uid of CONTENT_TYPES) {
    if ((await strapi.db.query(uid).count()) > 0) return true;
  }
  return false;
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

/** The demo image (og:image of every page, the company page's image block); Strapi makes its formats. */
async function seedImage(strapi) {
  const { name, alternativeText, file } = content.shareImage;
  const filepath = path.join(__dirname, file);
  const [uploaded] = await strapi
    .plugin("upload")
    .service("upload")
    .upload({
      data: { fileInfo: { name, alternativeText } },
      files: { filepath, originalFilename: name, mimetype: "image/png", size: statSync(filepath).size },
    });
  strapi.log.info(`[seed] share image ${uploaded.url}`);
  return strapi.db.query("plugin::upload.file").findOne({ where: { id: uploaded.id }, select: IMAGE_BLOCK_FIELDS });
}

/**
 * The page's fields in one locale: its SEO component carrying the image, its body's image blocks
 * showing it, and every media field of its sections (at any depth: a card's, a logo's) set to it.
 */
function pageData(fields, image, locale) {
  const alt = content.shareImage.placedAlt[locale];
  // An image block carries its file's alternative text: the page's language's here.
  const body = fields.body?.map((block) =>
    block.type === "image" && block.image === content.SEED_IMAGE
      ? { ...block, image: { ...image, alternativeText: alt } }
      : block,
  );
  const sections = fields.sections?.map((section) => withSeedMedia(section, image.id));
  return {
    ...fields,
    ...(body ? { body } : {}),
    ...(sections ? { sections } : {}),
    seo: { ...fields.seo, shareImage: image.id, shareImageAlt: alt },
  };
}

/** `value` with each SEED_IMAGE in it replaced by the uploaded file's id. */
function withSeedMedia(value, imageId) {
  if (value === content.SEED_IMAGE) return imageId;
  if (Array.isArray(value)) return value.map((item) => withSeedMedia(item, imageId));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withSeedMedia(item, imageId)]));
  }
  return value;
}

/**
 * `value` with each link's reference by key (`page: "company"`, `article: "berlin-office"`,
 * demo-content.js) connected to that document's version in `locale`.
 */
function withReferences(value, refs, locale) {
  if (Array.isArray(value)) return value.map((item) => withReferences(item, refs, locale));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if ((key === "page" || key === "article") && typeof item === "string") {
        const documentId = refs[key].get(item);
        if (!documentId) throw new Error(`demo content: a link names the ${key} ${item}, which the seed has not`);
        return [key, { connect: [{ documentId, locale }] }];
      }
      return [key, withReferences(item, refs, locale)];
    }),
  );
}

/**
 * Parents first (demo-content.js lists them so); each German entry is a localization of the English
 * document. Sections link to pages by reference, so they are written once every page is published
 * (a published page's link resolves to the target's published version: there must be one).
 * Resolves with the documentIds by page key.
 */
async function seedPages(strapi, image) {
  const documentIds = new Map();
  const documents = strapi.documents(PAGE);
  const locales = (pageDef) => (pageDef.de ? ["en", "de"] : ["en"]);
  for (const pageDef of content.pages) {
    const parentId = pageDef.parent ? documentIds.get(pageDef.parent) : null;
    const data = (locale) => {
      const fields = pageData(pageDef[locale], image, locale);
      delete fields.sections;
      return {
        ...fields,
        // A locale may have its own slug (the German imprint is /de/impressum).
        slug: pageDef[locale].slug ?? (pageDef.slug || null),
        ...(parentId ? { parent: { connect: [{ documentId: parentId, locale }] } } : {}),
      };
    };
    let documentId = null;
    for (const locale of locales(pageDef)) {
      const written = documentId
        ? await documents.update({ documentId, locale, data: data(locale) })
        : await documents.create({ locale, data: data(locale) });
      documentId = written.documentId;
      await documents.publish({ documentId, locale });
      strapi.log.info(`[seed] page ${written.fullPath} (${locale})`);
    }
    documentIds.set(pageDef.key, documentId);
  }
  const refs = { page: documentIds, article: new Map() };
  for (const pageDef of content.pages)
    for (const locale of locales(pageDef)) {
      const sections = pageDef[locale].sections;
      if (!sections) continue;
      const documentId = documentIds.get(pageDef.key);
      const data = { sections: withReferences(pageData({ sections }, image, locale).sections, refs, locale) };
      await documents.update({ documentId, locale, data });
      await documents.publish({ documentId, locale });
    }
  return documentIds;
}

/** A single type's entry in each locale (one document); published, when the type has draft & publish. */
async function seedSingleType(strapi, uid, dataByLocale) {
  const documents = strapi.documents(uid);
  const publish = Boolean(strapi.contentType(uid)?.options?.draftAndPublish);
  let documentId = null;
  for (const [locale, data] of Object.entries(dataByLocale)) {
    const written = documentId
      ? await documents.update({ documentId, locale, data })
      : await documents.create({ locale, data });
    documentId = written.documentId;
    if (publish) await documents.publish({ documentId, locale });
    strapi.log.info(`[seed] ${uid} (${locale})`);
  }
}

/**
 * Categories (both locales), authors, and articles: an English document and its German
 * localization each, published with the publishDate demo-content.js gives (kept: publish-date.js).
 */
async function seedBlog(strapi, image) {
  const categoryIds = new Map();
  const categories = strapi.documents("api::category.category");
  for (const category of content.categories) {
    const { documentId } = await categories.create({ locale: "en", data: category.en });
    await categories.update({ documentId, locale: "de", data: category.de });
    categoryIds.set(category.key, documentId);
  }
  const authorIds = new Map();
  for (const { key, ...author } of content.authors) {
    const { documentId } = await strapi.documents("api::author.author").create({ data: author });
    authorIds.set(key, documentId);
  }
  const articles = strapi.documents("api::article.article");
  const articleIds = new Map();
  for (const entry of content.articles) {
    const data = (locale) => ({
      ...entry[locale],
      ...(entry.publishAt ? { publishAt: entry.publishAt } : { publishDate: entry.publishDate }),
      cover: image.id,
      coverAlt: content.shareImage.placedAlt[locale],
      category: { connect: [{ documentId: categoryIds.get(entry.category), locale }] },
      author: { connect: [{ documentId: authorIds.get(entry.author) }] },
    });
    // A scheduled article stays a draft: the scheduler publishes it (docs/scheduled-publishing.md).
    const { documentId } = await articles.create({ locale: "en", data: data("en") });
    if (!entry.publishAt) await articles.publish({ documentId, locale: "en" });
    await articles.update({ documentId, locale: "de", data: data("de") });
    if (!entry.publishAt) await articles.publish({ documentId, locale: "de" });
    articleIds.set(entry.en.slug, documentId);
    strapi.log.info(
      `[seed] article /blog/${entry.en.slug} (en, de)${entry.publishAt ? `, scheduled for ${entry.publishAt}` : ""}`,
    );
  }
  return articleIds;
}

async function seedRedirects(strapi) {
  const documents = strapi.documents("api::redirect.redirect");
  for (const redirect of content.redirects) {
    const created = await documents.create({ data: redirect });
    await documents.publish({ documentId: created.documentId });
    strapi.log.info(`[seed] redirect ${redirect.source}`);
  }
}

module.exports = { seedDemoSiteOnce, MARKER };
