import { ExportSubmissionsButton } from "./export-submissions-button.jsx";

const PLUGIN_ID = "forms";

/**
 * The forms plugin's admin side (loaded through ../../strapi-admin.js): an "Export CSV" button in
 * the Content Manager's list of form submissions (export-submissions-button.jsx), placed in the
 * list view's `actions` injection zone as Strapi's i18n places its locale picker.
 */
export default {
  register(app) {
    app.registerPlugin({ id: PLUGIN_ID, name: "Forms" });
  },
  bootstrap(app) {
    app.getPlugin("content-manager").injectComponent("listView", "actions", {
      name: "forms-export-csv",
      Component: ExportSubmissionsButton,
    });
  },
};
