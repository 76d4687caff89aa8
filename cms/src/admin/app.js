import { Cloud } from "@strapi/icons";

import { PurgeCdnAction, RevalidateCacheAction } from "./site-cache-actions.js";

/**
 * The admin's site-cache controls: "Revalidate cache" and "Purge CDN" in the edit views of page,
 * navbar and footer (site-cache-actions.js), and the "Site cache" page in the main menu
 * (site-cache-page.jsx: recorded revalidation failures, retry, purge everything). The menu link
 * shows for admins whose role has the "Revalidate the site cache" permission.
 */
export default {
  config: { locales: [] },
  register(app) {
    app.addMenuLink({
      to: "site-cache",
      icon: Cloud,
      intlLabel: { id: "site-cache.menu", defaultMessage: "Site cache" },
      permissions: [{ action: "api::site-cache.revalidate", subject: null }],
      Component: () => import("./site-cache-page.jsx"),
    });
  },
  bootstrap(app) {
    app
      .getPlugin("content-manager")
      .apis.addDocumentAction((actions) => [...actions, RevalidateCacheAction, PurgeCdnAction]);
  },
};
