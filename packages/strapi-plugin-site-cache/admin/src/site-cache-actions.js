import { documentTag, typeTag } from "@cms-site/cache-tags";
import { useFetchClient, useNotification, useRBAC } from "@strapi/strapi/admin";

import { PURGE_PERMISSION, REVALIDATE_PERMISSION } from "./permissions.js";
import { useAdminQuestion } from "./use-admin-question.js";
import { useCdnPurge } from "./use-cdn-purge.js";

/**
 * Two document actions in the Content Manager's edit view of every content type declared for the
 * site (its schema's `pluginOptions["site-cache"]`: the server reads them, GET
 * /site-cache/content-types and /site-cache/capabilities answer uid → { single, path, localized }),
 * shown only when the admin URL has ?showRevalidateCache=true, each calling a CMS endpoint with
 * the admin's own token (useFetchClient attaches it) and showing the result as a notification:
 * - "Revalidate cache": POST /site-cache/revalidate (the site's own cache): an entry of a type with
 *   a `path` sends that path filled in from the entry (and its locale), a single type its type's
 *   tag, an entry of a type without a path its document's tag.
 * - "Purge CDN": POST /site-cache/cdn-purge (the CDN in front of the site, now): an entry sends its
 *   document's tag (every locale of it: the pages carry it in Surrogate-Key / Cache-Tag), a single
 *   type its type's tag (every page showing it).
 * Each is hidden for admins whose role lacks its permission (plugin::site-cache.revalidate or
 * plugin::site-cache.purge-cdn, server/admin-actions.js; the endpoints refuse them with 403
 * anyway), on types that are not declared, and until both are known. "Purge CDN" is hidden too
 * when the CMS has no CDN purge set up (use-cdn-purge.js): a button that can only fail is not offered.
 */

const enabledByUrl = () => {
  try {
    return new URLSearchParams(window.location.search).get("showRevalidateCache") === "true";
  } catch {
    return false;
  }
};

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A declared path filled in from the entry ('/blog/{slug}' → '/blog/hello'), or null when a part is empty. */
export function filledPath(template, entry) {
  let missing = false;
  const path = template.replace(PLACEHOLDER, (_, field) => {
    const value = entry?.[field];
    if (typeof value !== "string" || !value) missing = true;
    return missing ? "" : value;
  });
  return missing ? null : path;
}

/** The body of POST /site-cache/revalidate for one entry of a declared type, or null (not saved yet). */
export function revalidateBody(model, type, entry) {
  if (type.single) return { tags: [typeTag(model)] };
  if (type.path) {
    const path = filledPath(type.path, entry);
    if (!path) return null;
    return { uid: model, fullPaths: [path], ...(type.localized && entry?.locale ? { locale: entry.locale } : {}) };
  }
  return entry?.documentId ? { uid: model, tags: [documentTag(model, entry.documentId)] } : null;
}

/** The tags "Purge CDN" sends for one entry of a declared type, or null. */
export function purgeTags(model, type, documentId) {
  if (type.single) return [typeTag(model)];
  return documentId ? [documentTag(model, documentId)] : null;
}

/** The message of a failed admin fetch: the CMS's error, the site's (forwarded), or the network's. */
export function errorMessage(error) {
  const answer = error?.response?.data;
  return answer?.error?.message ?? answer?.data?.error ?? error?.message ?? "unknown error";
}

/**
 * One site-cache document action: shown per the URL, the permission and the type's declaration
 * (asked from `typesEndpoint`), posting `bodyFor(type)` to `endpoint`.
 */
function useSiteCacheAction({ model, permission, canKey, typesEndpoint, label, endpoint, bodyFor, success, failure }) {
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { allowedActions, isLoading } = useRBAC(permission);
  const byUrl = enabledByUrl();
  const allowed = byUrl && !isLoading && Boolean(allowedActions[canKey]);
  const type = useAdminQuestion(typesEndpoint, allowed)?.types?.[model];
  if (!allowed || !type) return null;
  const body = bodyFor(type);
  return {
    label,
    position: "panel",
    variant: "secondary",
    disabled: body === null,
    onClick: async () => {
      try {
        const { data } = await post(endpoint, body);
        toggleNotification({ type: "success", message: success(data?.data, body) });
      } catch (error) {
        toggleNotification({ type: "danger", message: `${failure}: ${errorMessage(error)}` });
      }
      return true;
    },
  };
}

export const RevalidateCacheAction = ({ model, document }) =>
  useSiteCacheAction({
    model,
    permission: REVALIDATE_PERMISSION,
    canKey: "canRevalidate",
    typesEndpoint: "/site-cache/content-types",
    label: "Revalidate cache",
    endpoint: "/site-cache/revalidate",
    bodyFor: (type) => revalidateBody(model, type, document),
    success: (data) => {
      const sent = data?.payload?.next ?? {};
      return `Cache revalidated: ${[...(sent.fullPaths ?? []), ...(sent.tags ?? [])].join(", ")}`;
    },
    failure: "Revalidation failed",
  });
RevalidateCacheAction.type = "revalidate-cache";

export const PurgeCdnAction = ({ model, document, documentId = document?.documentId }) => {
  const action = useSiteCacheAction({
    model,
    permission: PURGE_PERMISSION,
    canKey: "canPurgeCdn",
    typesEndpoint: "/site-cache/capabilities",
    label: "Purge CDN",
    endpoint: "/site-cache/cdn-purge",
    bodyFor: (type) => {
      const tags = purgeTags(model, type, documentId);
      return tags ? { tags } : null;
    },
    success: (_data, body) => `CDN purged: ${body.tags.join(", ")}`,
    failure: "CDN purge failed",
  });
  // Shown only where the CMS has a CDN purge set up (the same answer: asked once).
  const cdnPurge = useCdnPurge(action !== null);
  return action && cdnPurge === true ? action : null;
};
PurgeCdnAction.type = "purge-cdn";
