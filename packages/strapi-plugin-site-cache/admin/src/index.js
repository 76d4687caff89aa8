import { Cloud } from "@strapi/icons";

import { REVALIDATE_PERMISSION } from "./permissions.js";
import { addScheduleColumn } from "./schedule-column.jsx";
import { PurgeCdnAction, RevalidateCacheAction } from "./site-cache-actions.js";

const PLUGIN_ID = "site-cache";

/**
 * The site-cache plugin's admin side (loaded through ../../strapi-admin.mjs): "Revalidate cache"
 * and "Purge CDN" in the edit view of every content type declared for the site
 * (site-cache-actions.js), and the "Site cache" page in the main menu (site-cache-page.jsx:
 * recorded revalidation failures, retry, purge everything). The menu link shows for admins whose
 * role has the "Revalidate the site cache" permission. The "Schedule" column in the list view of
 * every scheduled type (schedule-column.jsx).
 */
export default {
  register(app) {
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: Cloud,
      intlLabel: { id: `${PLUGIN_ID}.menu`, defaultMessage: "Site cache" },
      permissions: REVALIDATE_PERMISSION,
      Component: () => import("./site-cache-page.jsx"),
    });
    app.registerPlugin({ id: PLUGIN_ID, name: "Site cache" });
  },
  bootstrap(app) {
    app
      .getPlugin("content-manager")
      .apis.addDocumentAction((actions) => [...actions, RevalidateCacheAction, PurgeCdnAction]);
    app.registerHook("Admin/CM/pages/ListView/inject-column-in-table", addScheduleColumn);
  },
};
