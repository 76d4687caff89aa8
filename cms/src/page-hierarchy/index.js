const { errors } = require('@strapi/utils');

const { computeFullPath } = require('./full-path');

const PAGE = 'api::page.page';

/**
 * Keeps a page's fullPath derived from its parent chain: after every create or update of
 * a page (draft), its fullPath is recomputed and written with a low-level query (no
 * document middleware runs again, no `updatedBy`). Publishing copies the draft, fullPath
 * included. Recomputing descendants when a published page moves, and revalidating the old
 * and new paths once per batch, is the hierarchy service of issue 5.
 */
function registerFullPathSync(strapi) {
  strapi.documents.use(async (context, next) => {
    if (context.uid !== PAGE || (context.action !== 'create' && context.action !== 'update')) return next();
    const result = await next();
    if (result?.documentId) {
      result.fullPath = await syncDraftFullPath(strapi, result.documentId, result.locale ?? context.params?.locale);
    }
    return result;
  });
}

async function syncDraftFullPath(strapi, documentId, locale) {
  const draft = await strapi.documents(PAGE).findOne({
    documentId,
    locale,
    status: 'draft',
    fields: ['slug', 'fullPath'],
    populate: { parent: { fields: ['fullPath'] } },
  });
  if (!draft) return null;
  const fullPath = computeFullPath(draft.parent ? draft.parent.fullPath : null, draft.slug);
  if (fullPath === null) {
    throw new errors.ValidationError('A page with a parent needs a slug (it becomes the last part of its URL).');
  }
  const clash = await strapi.db.query(PAGE).findOne({
    where: { fullPath, locale, publishedAt: null, documentId: { $ne: documentId } },
    select: ['documentId'],
  });
  if (clash) {
    throw new errors.ValidationError(`Another page in locale "${locale}" already has the URL ${fullPath}: change the slug or the parent.`);
  }
  if (draft.fullPath !== fullPath) {
    await strapi.db.query(PAGE).update({ where: { id: draft.id }, data: { fullPath } });
  }
  return fullPath;
}

module.exports = { registerFullPathSync, syncDraftFullPath };
