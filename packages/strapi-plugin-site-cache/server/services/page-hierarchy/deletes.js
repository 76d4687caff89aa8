"use strict";

const { prefixedPath } = require("../../utils/site-paths");
const { currentRedirects, localeInfo, publishedPages } = require("./batch");
const { redirectsInto } = require("./moves");
const { hierarchySettings } = require("./settings");

/**
 * A deleted page takes the redirects into it along (decision 0034): a redirect whose destination
 * is the address the page had (the automatic ones its moves created, compacted so that a page
 * moved twice has every old address pointing at its last one, and any other) would send visitors
 * to a 404 in two steps. They are removed, so those addresses answer 404 themselves, as the page
 * does. Only addresses no other published page has taken count: a page that still lives there
 * keeps its redirects.
 *
 * A document middleware around a page's `delete`, in the same transaction as the delete. The
 * redirects are deleted through the document service and NOT inside withoutRevalidation: the
 * revalidation middleware sends each removal as the takedown of its source (the site stops
 * redirecting there) and holds the editor's answer until the site has heard of it.
 */
function registerDanglingRedirectRemoval(strapi) {
  const { uid, pathField, redirectType } = hierarchySettings(strapi);
  if (!redirectType) return;
  strapi.documents.use(async (context, next) => {
    const documentId = context.params?.documentId;
    if (context.uid !== uid || context.action !== "delete" || !documentId) return next();

    return strapi.db.transaction(async () => {
      const published = async () =>
        (
          await strapi.db
            .query(uid)
            .findMany({ where: { documentId, publishedAt: { $notNull: true } }, select: ["locale", pathField] })
        ).map((row) => ({ locale: row.locale, fullPath: row[pathField] }));
      const before = await published();
      const result = await next();
      if (before.length === 0) return result;
      // Which locale(s) the delete took is Strapi's call (one, or `*`): compare instead of guessing.
      const remaining = new Set((await published()).map((row) => row.locale));
      const goneKeys = before
        .filter((row) => row.fullPath && !remaining.has(row.locale))
        .map((row) => prefixedPath(row.fullPath, row.locale));
      if (goneKeys.length === 0) return result;

      const { locales, defaultLocale } = await localeInfo(strapi);
      const livePaths = (await publishedPages(strapi))
        .filter((row) => row.fullPath)
        .map((row) => prefixedPath(row.fullPath, row.locale));
      const dangling = redirectsInto({
        goneKeys,
        redirects: await currentRedirects(strapi),
        livePaths,
        locales,
        defaultLocale,
      });
      for (const redirect of dangling) {
        await strapi.documents(redirectType).delete({ documentId: redirect.documentId });
        strapi.log.info(
          `[page-hierarchy] redirect ${redirect.source} → ${redirect.destination} removed (its page was deleted)`,
        );
      }
      return result;
    });
  });
}

module.exports = { registerDanglingRedirectRemoval };
