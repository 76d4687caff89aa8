/**
 * The cache tags, spelt here and nowhere else. The site's page cache records them while a page
 * renders (a render that read a document records that document's tag); the CMS sends the same
 * spellings when a document changes, so the site regenerates exactly the pages that read it.
 * Plain JavaScript (ES module) so that both halves import it as it is: the site's TypeScript and
 * the Strapi plugin's CommonJS (`require` of an ES module, Node 20.19 and later).
 */

/** The most tags (and, separately, the most paths) one revalidation request may carry. */
export const MAX_TAGS = 1000;

/**
 * The most paths one CDN purge request carries: the site's purge endpoint adds a tag per path and
 * takes at most MAX_TAGS tags, so 500 paths and their 500 path tags stay within it.
 */
export const MAX_PURGE_PATHS = 500;

/** The longest tag either half accepts. */
export const MAX_TAG_LENGTH = 256;

/** The longest site path either half accepts. */
export const MAX_PATH_LENGTH = 2048;

/** A tag is a non-empty word without spaces or commas (CDN tag headers are comma-separated). */
export const isValidTag = (tag) =>
  typeof tag === "string" && tag.length > 0 && tag.length <= MAX_TAG_LENGTH && !/[\s,]/.test(tag);

/** The tag of a content type: `cms:api::navbar.navbar`. Every read of the type records it. */
export const typeTag = (uid) => `cms:${uid}`;

/** The tag of one document, all its locales: `cms:api::page.page:<documentId>`. */
export const documentTag = (uid, documentId) => `${typeTag(uid)}:${documentId}`;

/** Whether a tag names one document (documentTag), not a type or a list. */
export const isDocumentTag = (tag) => /^cms:[^:]+::[^:]+:(?!list:|neighbours:|field:)[^:]+$/.test(tag);

/**
 * The tag of a type's published list in a locale (`*`, or no locale: every locale, or a type that
 * is not localized), optionally filtered by one relation:
 * `cms:api::article.article:list:en`, `cms:api::article.article:list:en:category=<documentId>`.
 */
export const listTag = (uid, locale, filter) =>
  `${typeTag(uid)}:list:${locale || "*"}${filter ? `:${filter.attribute}=${filter.documentId}` : ""}`;

/**
 * The tag of a document's previous/next links in a locale's list (`*`: every locale):
 * `cms:api::article.article:neighbours:en:<documentId>`. Sent for the neighbours of a document
 * whose place in the type's declared order changed: only their links change.
 */
export const neighboursTag = (uid, locale, documentId) => `${typeTag(uid)}:neighbours:${locale || "*"}:${documentId}`;

/**
 * The tag of an attribute's values in a locale (`*`: every locale): a list filtered or sorted by
 * the attribute records it; sent when a published document's value changed, so an edit that moves
 * a document into or out of a filtered list reaches it. `cms:api::article.article:field:en:category`.
 */
export const fieldTag = (uid, locale, attribute) => `${typeTag(uid)}:field:${locale || "*"}:${attribute}`;

/** The prefix of a path's tag: every cached answer at a site path carries `path:<path>`. */
export const PATH_TAG_PREFIX = "path:";

/** The tag of a site path: `path:/blog/hello`. A CDN purge by tag evicts the path's answers with it. */
export const pathTag = (path) => `${PATH_TAG_PREFIX}${path}`;
