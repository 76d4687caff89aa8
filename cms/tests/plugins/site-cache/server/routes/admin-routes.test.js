"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const server = require("../../../../../../packages/strapi-plugin-site-cache/server");
const { PERMISSIONS } = require("../../../../../../packages/strapi-plugin-site-cache/server/admin-actions");

const fakeStrapi = { plugin: () => ({ service: () => ({}) }), config: { get: () => ({}) } };

test("every admin route is an admin route guarded by admin::hasPermissions with one of the plugin's actions", () => {
  const { admin } = server.routes;
  assert.equal(admin.type, "admin");
  assert.ok(admin.routes.length >= 5);
  for (const route of admin.routes) {
    const where = `${route.method} ${route.path}`;
    assert.notEqual(route.config?.auth, false, `${where} must keep Strapi's admin auth`);
    const policies = route.config?.policies ?? [];
    assert.equal(policies.length, 1, where);
    assert.equal(policies[0].name, "admin::hasPermissions", where);
    assert.equal(policies[0].config.actions.length, 1, where);
    assert.ok(Object.values(PERMISSIONS).includes(policies[0].config.actions[0]), where);
  }
});

test("every route's handler is a method of the plugin's controllers; the content API has no route", () => {
  for (const route of server.routes.admin.routes) {
    const [controller, method] = route.handler.split(".");
    const factory = server.controllers[controller];
    assert.equal(typeof factory, "function", `${route.handler}: no controller ${controller}`);
    assert.equal(typeof factory({ strapi: fakeStrapi })[method], "function", `${route.handler}: no method`);
  }
  assert.deepEqual(server.routes["content-api"], { type: "content-api", routes: [] });
});
