import { useFetchClient, useNotification, useRBAC } from "@strapi/strapi/admin";

import { PURGE_PERMISSION, REVALIDATE_PERMISSION } from "./permissions.js";
import { useCdnPurge } from "./use-cdn-purge.js";

/**
 * Two document actions in the Content Manager's edit view of page, navbar, footer and error
 * page, shown only when the admin URL has ?showRevalidateCache=true, each calling a CMS endpoint
 * with the admin's own token (useFetchClient attaches it) and showing the result as a
 * notification:
 * - "Revalidate cache": POST /site-cache/revalidate (the site's own cache); a page sends its
 *   fullPath and locale, the others their type's tag.
 * - "Purge CDN": POST /site-cache/cdn-purge (the CDN in front of the site, now); a page sends its
 *   document's tag (every locale of it: the pages carry it in Surrogate-Key / Cache-Tag), navbar,
 *   footer and error page their type's tag (every page, or every error page, shows them).
 * Each is hidden for admins whose role lacks its permission (plugin::site-cache.revalidate or
 * plugin::site-cache.purge-cdn, server/admin-actions.js; the endpoints refuse them with 403
 * anyway), and disabled while that is being checked. "Purge CDN" is hidden too when the CMS has
 * no CDN purge set up (use-cdn-purge.js): a button that can only fail is not offered.
 */
const MODELS = {
  "api::page.page": "path",
  "api::navbar.navbar": "tag",
  "api::footer.footer": "tag",
  "api::error-page.error-page": "tag",
};

const enabledByUrl = () => {
  try {
    return new URLSearchParams(window.location.search).get("showRevalidateCache") === "true";
  } catch {
    return false;
  }
};

/** The message of a failed admin fetch: the CMS's error, the site's (forwarded), or the network's. */
export function errorMessage(error) {
  const answer = error?.response?.data;
  return answer?.error?.message ?? answer?.data?.error ?? error?.message ?? "unknown error";
}

/** One site-cache document action: shown per the URL and the permission, posting `body` to `endpoint`. */
function useSiteCacheAction({ model, permission, canKey, label, endpoint, body, success, failure, needsCdn = false }) {
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { allowedActions, isLoading } = useRBAC(permission);
  const shown = Boolean(MODELS[model]) && enabledByUrl();
  const cdnPurge = useCdnPurge(needsCdn && shown && !isLoading && Boolean(allowedActions[canKey]));
  if (!shown) return null;
  if (!isLoading && !allowedActions[canKey]) return null;
  if (needsCdn && cdnPurge === false) return null;
  return {
    label,
    position: "panel",
    variant: "secondary",
    disabled: body === null || isLoading || (needsCdn && cdnPurge !== true),
    onClick: async () => {
      try {
        const { data } = await post(endpoint, body);
        toggleNotification({ type: "success", message: success(data?.data) });
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
    label: "Revalidate cache",
    endpoint: "/site-cache/revalidate",
    body:
      MODELS[model] === "tag"
        ? { tags: [`cms:${model}`] }
        : document?.fullPath
          ? { fullPaths: [document.fullPath], locale: document.locale }
          : null,
    success: (data) => {
      const sent = data?.payload?.next ?? {};
      return `Cache revalidated: ${[...(sent.fullPaths ?? []), ...(sent.tags ?? [])].join(", ")}`;
    },
    failure: "Revalidation failed",
  });
RevalidateCacheAction.type = "revalidate-cache";

export const PurgeCdnAction = ({ model, document, documentId = document?.documentId }) => {
  const tags = MODELS[model] === "tag" ? [`cms:${model}`] : documentId ? [`cms:${model}:${documentId}`] : null;
  return useSiteCacheAction({
    model,
    permission: PURGE_PERMISSION,
    canKey: "canPurgeCdn",
    label: "Purge CDN",
    endpoint: "/site-cache/cdn-purge",
    body: tags ? { tags } : null,
    success: () => `CDN purged: ${tags.join(", ")}`,
    failure: "CDN purge failed",
    needsCdn: true,
  });
};
PurgeCdnAction.type = "purge-cdn";
