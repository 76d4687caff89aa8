"use strict";

const { normalise, prefixedPath, sitePath } = require("../../utils/site-paths");

/**
 * Pure helpers of the revalidation service (unit-tested in cms/tests/plugins/site-cache/): which content
 * types are revalidated and how (the allowlist of docs/cms-contract.md), when (the trigger policy), and
 * the payload sent to the front end's POST /api/cms-revalidate.
 */

/**
 * The spec's allowlist: a content type not listed here is never revalidated automatically.
 * `tagged`: its paths go with the type's tag (what lists every page: the sitemap) and each
 * document's tag (what shows a page's other locales: hreflang alternates).
 * `pathPrefix`: the site path of an entry is the prefix and its field's value (`/blog/<slug>`).
 * Articles (docs/cms-contract.md, "Articles"): the article's own path, plus the type's tag
 * `cms:api::article.article`, which every render that lists articles carries (the blog's
 * listing, category and detail pages, the feed, the sitemap, latest-articles sections). Category
 * and author: by tag, carried by the renders that show their names.
 */
const ALLOWLIST = Object.freeze({
  "api::page.page": Object.freeze({ mode: "path", field: "fullPath", localized: true, tagged: true }),
  "api::redirect.redirect": Object.freeze({ mode: "path", field: "source", localized: false }),
  "api::navbar.navbar": Object.freeze({ mode: "tag" }),
  "api::footer.footer": Object.freeze({ mode: "tag" }),
  // The 404 and error pages' text: cached 404 answers carry its tag (app/lib/cms/error-page.server.ts).
  "api::error-page.error-page": Object.freeze({ mode: "tag" }),
  "api::article.article": Object.freeze({
    mode: "path",
    field: "slug",
    pathPrefix: "/blog/",
    localized: true,
    tagged: true,
  }),
  "api::category.category": Object.freeze({ mode: "tag" }),
  "api::author.author": Object.freeze({ mode: "tag" }),
});

const tagFor = (uid) => `cms:${uid}`;
/** One document's tag, all its locales: `cms:api::page.page:<documentId>`. */
const documentTagFor = (uid, documentId) => `${tagFor(uid)}:${documentId}`;

/** The allowlist entry of uid, or null. */
function targetFor(uid) {
  return Object.prototype.hasOwnProperty.call(ALLOWLIST, uid) ? ALLOWLIST[uid] : null;
}

/**
 * Does this document action change what the site shows?
 * - draftAndPublish true: publish, unpublish, delete, and writes that touch the published
 *   version (create/update with status 'published', which Strapi turns into a publish);
 *   draft-only writes (create, update, discardDraft) are invisible to the site.
 * - draftAndPublish false: every write (create, update, delete).
 * - writes flagged `updatedBy: null` (the hierarchy recalculation's own writes) are skipped:
 *   that batch revalidates its paths itself, once.
 */
function shouldRevalidate({ action, params, draftAndPublish }) {
  if (
    params &&
    params.data &&
    typeof params.data === "object" &&
    "updatedBy" in params.data &&
    params.data.updatedBy === null
  ) {
    return false;
  }
  if (draftAndPublish) {
    if (action === "publish" || action === "unpublish" || action === "delete") return true;
    if ((action === "create" || action === "update") && params?.status === "published") return true;
    return false;
  }
  return action === "create" || action === "update" || action === "delete";
}

/**
 * Does the action make the site lose the entry (so its path must be read before it runs)? Such
 * a takedown is sent with `expire: true`: the site expires what it hits instead of marking it
 * stale, so nobody is shown the old page again (not even once, stale).
 */
const removesEntry = (action) => action === "unpublish" || action === "delete";

const unique = (values) => [...new Set(values)];

/**
 * The spec's "simpler input" → the payload of POST /api/cms-revalidate.
 * `{ uid, fullPaths?, locale?, tags?, expire? }` → `{ uid, next: { fullPaths?, tags?, expire? } }`:
 * paths get the locale prefix when locale is not the default one (default-locale paths are
 * sent unprefixed: the front end adds the /<default> variant itself); a path that is already
 * locale-prefixed (redirect sources) is sent with no locale and kept as is. Paths of a
 * `tagged` type bring the type's tag (`cms:api::page.page`: the sitemap), whoever sends them.
 * `expire: true` (unpublish, delete, or asked for) is sent as is; anything else is left out
 * (the site's default, stale-while-revalidate). Empty lists are left out; null when there is
 * nothing to revalidate.
 */
function buildPayload(input, { defaultLocale } = {}) {
  if (!input || typeof input.uid !== "string" || !input.uid) throw new TypeError("buildPayload: uid is required");
  const fullPaths = unique(
    (input.fullPaths ?? [])
      .filter((p) => typeof p === "string" && p)
      .map((p) => sitePath(p, input.locale, defaultLocale)),
  );
  const typeTag = fullPaths.length && targetFor(input.uid)?.tagged ? [tagFor(input.uid)] : [];
  const tags = unique([...typeTag, ...(input.tags ?? [])].filter((t) => typeof t === "string" && t));
  if (fullPaths.length === 0 && tags.length === 0) return null;
  const next = {};
  if (fullPaths.length) next.fullPaths = fullPaths;
  if (tags.length) next.tags = tags;
  if (input.expire === true) next.expire = true;
  return { uid: input.uid, next };
}

/** The revalidation input for one document of an allowlisted type (entries: its rows). */
function inputFor(uid, entries, { defaultLocale } = {}) {
  const target = targetFor(uid);
  if (!target) return null;
  if (target.mode === "tag") return { uid, tags: [tagFor(uid)] };
  const fullPaths = [];
  for (const entry of entries ?? []) {
    const value = entry?.[target.field];
    if (typeof value !== "string" || !value) continue;
    const path = target.pathPrefix ? `${target.pathPrefix}${value}` : value;
    fullPaths.push(target.localized ? sitePath(path, entry.locale, defaultLocale) : path);
  }
  if (!fullPaths.length) return null;
  const tags = target.tagged
    ? unique((entries ?? []).filter((entry) => entry?.documentId).map((entry) => documentTagFor(uid, entry.documentId)))
    : [];
  return { uid, fullPaths: unique(fullPaths), ...(tags.length ? { tags } : {}) };
}

module.exports = {
  ALLOWLIST,
  tagFor,
  documentTagFor,
  targetFor,
  shouldRevalidate,
  removesEntry,
  sitePath,
  prefixedPath,
  normalise,
  buildPayload,
  inputFor,
};
