"use strict";

const { errors } = require("@strapi/utils");

const { altTextPopulate, missingAltText } = require("./alt-text-placements");

/**
 * Publishing needs alternative text for every informative image (docs/cms-contract.md,
 * "Alternative text"): a publish of an entry with an image placed without any (no alt of its
 * placement, none in the Media Library, not marked decorative) is refused with a ValidationError
 * naming each such image by the path an editor follows in the edit view; the admin shows it as the
 * publish's error, and nothing is published. Drafts are saved as they are: the rule is for what
 * visitors see.
 *
 * A create or update with `status: 'published'` (the REST API's, a script's) is a save and a publish
 * in one: Strapi 5 runs its publish internally, past the document middlewares, so the write is split
 * here into the save and a publish that goes through this rule. A refused one leaves the saved
 * draft, as a refused publish in the admin does.
 */
const isPublishLike = (action, params) =>
  action === "publish" || ((action === "create" || action === "update") && params?.status === "published");

/** The locales a publish names: one, several (the admin's bulk publish), or every one ('*'); none means the default locale. */
async function localesOf(strapi, params) {
  const named = [params.locale].flat().filter((locale) => typeof locale === "string" && locale);
  return named.length > 0 ? named : [await strapi.plugin("i18n").service("locales").getDefaultLocale()];
}

async function refuseWithoutAltText(strapi, uid, documentId, locales) {
  const schema = strapi.getModel(uid);
  const localized = Boolean(schema.pluginOptions?.i18n?.localized);
  const drafts = [];
  for (const locale of localized ? locales : [null]) {
    const found = await strapi.documents(uid).findMany({
      filters: { documentId },
      status: "draft",
      ...(locale ? { locale } : {}),
      populate: altTextPopulate(strapi, schema),
    });
    drafts.push(...found);
  }
  const problems = drafts.flatMap((draft) =>
    missingAltText(strapi, uid, schema, draft).map((problem) =>
      drafts.length > 1 ? `[${draft.locale}] ${problem}` : problem,
    ),
  );
  if (problems.length === 0) return;
  throw new errors.ValidationError(
    `Not published: ${problems.length === 1 ? "an image needs" : `${problems.length} images need`} alternative text. ${problems.join("; ")}.`,
    { altText: problems },
  );
}

function registerAltTextRule(strapi) {
  strapi.documents.use(async (context, next) => {
    const { uid, action, params } = context;
    if (!uid.startsWith("api::") || !isPublishLike(action, params)) return next();
    if (!strapi.getModel(uid)?.options?.draftAndPublish) return next();
    if (action === "publish") {
      await refuseWithoutAltText(strapi, uid, params.documentId, await localesOf(strapi, params));
      return next();
    }
    const { status: _published, ...save } = params;
    const draft = await strapi.documents(uid)[action](save);
    if (!draft) return draft;
    const published = await strapi
      .documents(uid)
      .publish({ documentId: draft.documentId, ...(params.locale ? { locale: params.locale } : {}) });
    return published.entries[0] ?? draft;
  });
}

module.exports = { registerAltTextRule };
