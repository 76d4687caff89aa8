"use strict";

/**
 * Converts a navbar's entries of an older database into this version's: the navbar's `links` were
 * `shared.link` components and are now `shared.nav-link` (docs/decisions/0041). Strapi's schema
 * sync keeps the old rows (the navbar's component join table holds them, typed `shared.link`, and
 * `components_shared_links` their label and URL: the component still exists), but reads the field
 * as the new component only, so the navbar would show no links and an editor's next save would
 * drop them.
 *
 * Run from Strapi's `strapi::content-types.afterSync` hook (src/index.js): after the schema sync,
 * which creates the new component's tables, and before any plugin's bootstrap or request can read
 * or write the navbar. Every entry of every navbar row is converted in place (each locale, and the
 * draft and published rows where there are both): a new `shared.nav-link` with the same label, URL
 * and page or article reference, in the same join row (same order), and the old component row
 * deleted. One transaction: a failed conversion leaves the old rows for the next start. Idempotent
 * by its data: a second start finds no `shared.link` entry under `links` and changes nothing.
 * Once the revalidation is on, the converted navbars' document tags are sent: the site's pages
 * cached while the CMS still answered the old navbar re-render with the converted one.
 */

const NAVBAR = "api::navbar.navbar";
const FIELD = "links";
const OLD = "shared.link";
const NEW = "shared.nav-link";

/**
 * The join table of the navbar's `links` and its columns, as Strapi's metadata names them: the
 * component type is the pivot column that is neither the entity, the component nor the field.
 */
function linksJoinTable(strapi) {
  const { joinTable } = strapi.db.metadata.get(NAVBAR).attributes[FIELD];
  const entity = joinTable.joinColumn.name;
  const component = joinTable.inverseJoinColumn.name;
  const type = joinTable.pivotColumns.find(
    (column) => ![entity, component, ...Object.keys(joinTable.on)].includes(column),
  );
  return { name: joinTable.name, entity, component, type, on: joinTable.on };
}

const idOf = (related) => (related ? related.id : null);

/** Converts every old entry; returns `{ converted, navbarRows, documentIds }` (logged when not zero). */
async function convertNavbarLinks(strapi) {
  const table = linksJoinTable(strapi);
  return strapi.db.transaction(async ({ trx }) => {
    const oldEntries = await strapi.db
      .getConnection(table.name)
      .transacting(trx)
      .where({ ...table.on, [table.type]: OLD })
      .select("id", table.entity, table.component);
    if (oldEntries.length === 0) return { converted: 0, navbarRows: 0, documentIds: [] };
    for (const entry of oldEntries) {
      const joinRow = strapi.db.getConnection(table.name).transacting(trx).where({ id: entry.id });
      const link = await strapi.db
        .query(OLD)
        .findOne({ where: { id: entry[table.component] }, populate: ["page", "article"] });
      // A join row whose component row is gone shows nothing today: dropped, not made an empty entry.
      if (!link) {
        await joinRow.delete();
        continue;
      }
      const navLink = await strapi.db.query(NEW).create({
        data: { label: link.label, url: link.url, page: idOf(link.page), article: idOf(link.article) },
      });
      await joinRow.update({ [table.component]: navLink.id, [table.type]: NEW });
      await strapi.db.query(OLD).delete({ where: { id: link.id } });
    }
    const rowIds = [...new Set(oldEntries.map((entry) => entry[table.entity]))];
    const rows = await strapi.db.query(NAVBAR).findMany({ where: { id: { $in: rowIds } }, select: ["documentId"] });
    return {
      converted: oldEntries.length,
      navbarRows: rowIds.length,
      documentIds: [...new Set(rows.map((row) => row.documentId))],
    };
  });
}

/** The navbar documents this start converted (their pages are revalidated once the revalidation is on). */
const convertedThisStart = new Set();

/** From register(): the conversion after each start's schema sync, logged when it converted something. */
function convertNavbarLinksAfterSync(strapi) {
  strapi.hook("strapi::content-types.afterSync").register(async () => {
    const { converted, navbarRows, documentIds } = await convertNavbarLinks(strapi);
    for (const documentId of documentIds) convertedThisStart.add(documentId);
    if (converted > 0)
      strapi.log.info(
        `[upgrade] navbar: converted ${converted} ${OLD} entries of "${FIELD}" into ${NEW} (label, URL, order kept) in ${navbarRows} navbar rows`,
      );
  });
}

/** From bootstrap(), after the revalidation started: the converted navbars' tags, sent in the background. */
function revalidateConvertedNavbars(strapi) {
  if (convertedThisStart.size === 0) return;
  const documentIds = [...convertedThisStart];
  convertedThisStart.clear();
  strapi
    .plugin("site-cache")
    .service("revalidation")
    .revalidateDocuments(NAVBAR, documentIds)
    .then((result) =>
      strapi.log.info(
        `[upgrade] navbar: the site's pages revalidated after the conversion: ${result.ok ? "accepted" : (result.reason ?? result.error ?? "NOT accepted")}`,
      ),
    );
}

module.exports = { convertNavbarLinks, convertNavbarLinksAfterSync, revalidateConvertedNavbars };
