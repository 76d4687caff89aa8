"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { readdirSync, existsSync } = require("node:fs");
const path = require("node:path");

const { decidedTypes, decisionFor, isDecided, isReservedFor, OWN_PLUGINS, ROLES } = require("../src/admin-grants");

const hidden = { pluginOptions: { "content-manager": { visible: false } } };
const visible = {};
const types = {
  "api::page.page": visible,
  "api::event.event": visible,
  "plugin::users-permissions.user": visible,
  "plugin::accounts.oauth-identity": hidden,
  "plugin::accounts.later-one": visible,
  "admin::user": hidden,
};
const read = "plugin::content-manager.explorer.read";
const create = "plugin::content-manager.explorer.create";
const publish = "plugin::content-manager.explorer.publish";

// The project's plugins live in src/plugins/<name>, but site-cache, a package in ../packages.
const PLUGIN_DIRS = { "site-cache": path.join(__dirname, "../../packages/strapi-plugin-site-cache") };

test("every type a local plugin declares is hidden from the Content Manager and the Content-Type Builder", () => {
  for (const plugin of OWN_PLUGINS) {
    const root = PLUGIN_DIRS[plugin] ?? path.join(__dirname, "../src/plugins", plugin);
    const dir = path.join(root, "server/content-types");
    for (const name of readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      const file = path.join(dir, name.name, "schema.json");
      assert.ok(existsSync(file), file);
      const { pluginOptions = {} } = require(file);
      assert.equal(pluginOptions["content-manager"]?.visible, false, `${plugin}/${name.name}: content-manager`);
      assert.equal(
        pluginOptions["content-type-builder"]?.visible,
        false,
        `${plugin}/${name.name}: content-type-builder`,
      );
    }
  }
});

test("a visible type the table does not list is undecided; a hidden one is the Super Admin's", () => {
  assert.equal(decisionFor("api::event.event", visible), undefined);
  assert.deepEqual(decisionFor("admin::user", hidden), {});
  assert.equal(isDecided(ROLES.EDITOR, { action: read, subject: "api::event.event" }, types), false);
  assert.equal(isDecided(ROLES.SUPER_ADMIN, { action: read, subject: "admin::user" }, types), true);
  assert.equal(isDecided(ROLES.EDITOR, { action: read, subject: "admin::user" }, types), false);
});

test("a type declared for the site (its site-cache block) is editorial by that declaration; a plugin's type is not", () => {
  const declared = { pluginOptions: { "site-cache": { path: "/jobs/{slug}" } } };
  assert.deepEqual(decisionFor("api::job.job", declared), decisionFor("api::page.page", {}));
  const typeMap = { "api::job.job": declared, "api::event.event": visible };
  assert.equal(isDecided(ROLES.EDITOR, { action: publish, subject: "api::job.job" }, typeMap), true);
  assert.equal(isDecided(ROLES.AUTHOR, { action: publish, subject: "api::job.job" }, typeMap), false);
  assert.deepEqual(
    decidedTypes(typeMap).map(([uid]) => uid),
    ["api::job.job"],
  );
  // Only the project's API types: a plugin's declared type is still its table entry or undecided.
  assert.equal(decisionFor("plugin::someone.thing", declared), undefined);
});

test("editorial types: Editors everything, Authors all but publish and only with is-creator", () => {
  assert.equal(isDecided(ROLES.EDITOR, { action: publish, subject: "api::page.page" }, types), true);
  assert.equal(isDecided(ROLES.AUTHOR, { action: publish, subject: "api::page.page" }, types), false);
  const authorCreate = { action: create, subject: "api::page.page" };
  assert.equal(isDecided(ROLES.AUTHOR, { ...authorCreate, conditions: ["admin::is-creator"] }, types), true);
  assert.equal(isDecided(ROLES.AUTHOR, { ...authorCreate, conditions: [] }, types), false);
});

test("the plugins' own types (a later one too): no role, not even the Super Admin", () => {
  for (const subject of ["plugin::accounts.oauth-identity", "plugin::accounts.later-one"])
    for (const role of [ROLES.SUPER_ADMIN, ROLES.EDITOR, ROLES.AUTHOR, "custom-translator"]) {
      assert.equal(isDecided(role, { action: read, subject }, types), false, `${role} ${subject}`);
      assert.equal(isReservedFor(role, subject, types), true, `${role} ${subject}`);
    }
});

test("the site's users: the Super Admin only, custom roles lose them too; editorial types stay the admins' call", () => {
  const users = "plugin::users-permissions.user";
  assert.equal(isReservedFor(ROLES.SUPER_ADMIN, users, types), false);
  for (const role of [ROLES.EDITOR, ROLES.AUTHOR, "custom-support"])
    assert.equal(isReservedFor(role, users, types), true);
  assert.equal(isReservedFor("custom-translator", "api::page.page", types), false);
  assert.equal(isReservedFor(ROLES.EDITOR, "api::event.event", types), false);
});

test("grants without a type: the default roles' media library and site-cache actions as listed", () => {
  assert.equal(isDecided(ROLES.EDITOR, { action: "plugin::site-cache.purge-cdn" }, types), true);
  assert.equal(isDecided(ROLES.AUTHOR, { action: "plugin::site-cache.purge-cdn" }, types), false);
  assert.equal(isDecided(ROLES.AUTHOR, { action: "plugin::upload.read", conditions: [] }, types), false);
  assert.equal(
    isDecided(ROLES.AUTHOR, { action: "plugin::upload.read", conditions: ["admin::is-creator"] }, types),
    true,
  );
});

test("form submissions (personal data): Editors read and delete, nobody else but the Super Admin, enforced", () => {
  const submissions = "plugin::forms.submission";
  const all = { ...types, [submissions]: visible };
  const remove = "plugin::content-manager.explorer.delete";
  const update = "plugin::content-manager.explorer.update";
  assert.equal(isReservedFor(ROLES.EDITOR, submissions, all, read), false);
  assert.equal(isReservedFor(ROLES.EDITOR, submissions, all, remove), false);
  for (const action of [create, update, publish])
    assert.equal(isReservedFor(ROLES.EDITOR, submissions, all, action), true);
  for (const action of [read, create, update, remove]) {
    assert.equal(isReservedFor(ROLES.AUTHOR, submissions, all, action), true, action);
    assert.equal(isReservedFor("a-custom-role", submissions, all, action), true, action);
    assert.equal(isReservedFor(ROLES.SUPER_ADMIN, submissions, all, action), false, action);
  }
  assert.equal(isDecided(ROLES.EDITOR, { action: read, subject: submissions }, all), true);
  assert.equal(isDecided(ROLES.AUTHOR, { action: read, subject: submissions }, all), false);
});
