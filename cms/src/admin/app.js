import { useFetchClient, useNotification, useRBAC } from "@strapi/strapi/admin";

/**
 * "Revalidate cache" in the Content Manager's edit view of page, navbar and footer, shown only
 * when the admin URL has ?showRevalidateCache=true. It calls POST /api/revalidate-cache (the
 * CMS's manual revalidation endpoint) with the admin's own token (useFetchClient attaches it):
 * a page sends its fullPath and locale, navbar and footer their tag. Hidden for admins whose role
 * lacks the "Revalidate the site cache" permission (api::site-cache.revalidate, registered by
 * src/revalidation/admin-permission.js; the endpoint refuses them with 403 anyway), disabled
 * while that is being checked.
 */
const MODELS = {
  "api::page.page": "path",
  "api::navbar.navbar": "tag",
  "api::footer.footer": "tag",
};

// Module-level: useRBAC re-checks whenever this array changes.
const REVALIDATE_PERMISSION = [{ action: "api::site-cache.revalidate" }];

const enabledByUrl = () => {
  try {
    return new URLSearchParams(window.location.search).get("showRevalidateCache") === "true";
  } catch {
    return false;
  }
};

const RevalidateCacheAction = ({ model, document }) => {
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { allowedActions, isLoading } = useRBAC(REVALIDATE_PERMISSION);
  const mode = MODELS[model];
  if (!mode || !enabledByUrl()) return null;
  if (!isLoading && !allowedActions.canRevalidate) return null;

  const body =
    mode === "tag"
      ? { tags: [`cms:${model}`] }
      : document?.fullPath
        ? { fullPaths: [document.fullPath], locale: document.locale }
        : null;

  return {
    label: "Revalidate cache",
    position: "panel",
    variant: "secondary",
    disabled: body === null || isLoading,
    onClick: async () => {
      try {
        const { data } = await post("/api/revalidate-cache", body);
        const sent = data?.data?.payload?.next ?? {};
        const what = [...(sent.fullPaths ?? []), ...(sent.tags ?? [])].join(", ");
        toggleNotification({ type: "success", message: `Cache revalidated: ${what}` });
      } catch (error) {
        const answer = error?.response?.data;
        const message = answer?.error?.message ?? answer?.data?.error ?? error?.message ?? "unknown error";
        toggleNotification({ type: "danger", message: `Revalidation failed: ${message}` });
      }
      return true;
    },
  };
};
RevalidateCacheAction.type = "revalidate-cache";

export default {
  config: { locales: [] },
  bootstrap(app) {
    app.getPlugin("content-manager").apis.addDocumentAction((actions) => [...actions, RevalidateCacheAction]);
  },
};
