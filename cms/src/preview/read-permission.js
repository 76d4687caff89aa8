"use strict";

const { errors } = require("@strapi/utils");

/**
 * Strapi's preview-URL route (`GET /content-manager/preview/url/:uid?documentId=…`, the admin's
 * Preview button) checks only that an admin is signed in ("TODO: Permissions to preview content"
 * in @strapi/content-manager's preview controller), and its handler (./index.js) is given the uid
 * and the document, not the admin. So any admin, an Author too, got a signed link to anybody's
 * draft (docs/security.md, finding 42). This policy, added to that route, asks what the Content
 * Manager asks, with its permission checker: may this admin read this content type,
 * and this document (an Author: only entries they created, src/admin-grants.js)? If not: 403.
 */

const PREVIEW_URL_PATH = "/preview/url/:contentType";
const REFUSED = "You may not preview this document: your role cannot read it in the Content Manager.";

/**
 * Whether the document (in the locale and status the link is asked for) is among those the admin
 * may read: found through the filters the Content Manager's list adds for the admin's read
 * conditions (an Author: `createdBy.id` is theirs; i18n: the permission's locales), i.e. the list
 * the admin sees. (A filter, not `checker.cannot.read(document)`: the document service does not
 * give the locale condition what it needs.)
 */
async function readable(strapi, uid, checker, { documentId, locale, status }) {
  const model = strapi.getModel(uid);
  const { filters } = await checker.sanitizedQuery.read({});
  const find = (wanted) =>
    strapi.documents(uid).findFirst({
      filters: { $and: [{ documentId }, ...(filters ? [filters] : [])] },
      locale: locale || undefined,
      status: wanted,
      fields: ["documentId"],
    });
  if (!model.options?.draftAndPublish) return Boolean(await find(undefined));
  // As the handler (./index.js): a published tab whose published version is gone previews the draft.
  return Boolean((await find(status === "published" ? "published" : "draft")) ?? (await find("draft")));
}

/** The route policy (`global::may-preview`, src/policies/): true when the admin may read the document, else a 403 with the reason. */
async function mayPreview(policyContext, _config, { strapi }) {
  const uid = policyContext.params.contentType;
  const { userAbility } = policyContext.state;
  if (!strapi.getModel(uid)) return true; // Strapi's own validation answers an unknown type (400).
  const checker = strapi.plugin("content-manager").service("permission-checker").create({ userAbility, model: uid });
  if (checker.cannot.read()) throw new errors.PolicyError(REFUSED);
  const { documentId, locale, status } = policyContext.request.query ?? {};
  // A single type's document is the one there is (the route's validation finds it); its read grant is the type's.
  if (!documentId) return true;
  if (!(await readable(strapi, uid, checker, { documentId, locale, status }))) throw new errors.PolicyError(REFUSED);
  return true;
}

/** In the app's register(): before routing starts, so the route carries the policy from its first request. */
function guardPreviewUrlRoute(strapi) {
  const routers = Object.values(strapi.plugin("content-manager").routes ?? {});
  const route = routers.flatMap((router) => router.routes ?? []).find((each) => each.path === PREVIEW_URL_PATH);
  if (!route) throw new Error(`@strapi/content-manager has no ${PREVIEW_URL_PATH} route to guard: check the upgrade.`);
  route.config = { ...route.config, policies: [...(route.config?.policies ?? []), "global::may-preview"] };
}

module.exports = { guardPreviewUrlRoute, mayPreview };
