"use strict";

const UID = "plugin::forms.submission";
const EDITOR_CODE = "strapi-editor";
const STORE = { type: "plugin", name: "forms" };
const GRANTED_KEY = "editor-granted";

/**
 * `strapi.plugin("forms").service("permissions")`: the Editor role's read and delete on
 * submissions (src/admin-grants.js), once. Strapi grants a content type to its default roles only
 * when it creates them (a new database); a database made before this plugin would leave Editors
 * without the submissions. Called by the application's bootstrap (src/index.js), after the admin's,
 * which creates the roles. A marker in Strapi's core store records it, so an admin's later removal
 * sticks; no Editor role: nothing granted or recorded.
 */
module.exports = ({ strapi }) => ({
  async grantEditorOnce() {
    const store = strapi.store(STORE);
    if (await store.get({ key: GRANTED_KEY })) return { granted: [] };
    const editor = await strapi.db.query("admin::role").findOne({ where: { code: EDITOR_CODE }, select: ["id"] });
    if (!editor) return { granted: [] };
    const wanted = ["plugin::content-manager.explorer.read", "plugin::content-manager.explorer.delete"];
    const existing = await strapi.db.query("admin::permission").findMany({
      where: { role: { id: editor.id }, subject: UID, action: { $in: wanted } },
      select: ["action"],
    });
    const have = new Set(existing.map((permission) => permission.action));
    const fields = Object.keys(strapi.contentType(UID).attributes);
    const toAdd = wanted.filter((action) => !have.has(action));
    if (toAdd.length > 0) {
      await strapi.service("admin::role").addPermissions(
        editor.id,
        toAdd.map((action) => ({
          action,
          subject: UID,
          properties: action.endsWith(".read") ? { fields } : {},
          conditions: [],
        })),
      );
      strapi.log.info(`[forms] granted to the Editor role on form submissions: ${toAdd.join(", ")}`);
    }
    await store.set({ key: GRANTED_KEY, value: true });
    return { granted: toAdd };
  },
});
