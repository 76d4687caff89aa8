"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { guardPreviewUrlRoute } = require("../../src/preview/read-permission");

/** A strapi whose content-manager plugin has these routers (the shape of @strapi/content-manager's). */
const strapiWith = (routes) => ({ plugin: (name) => (name === "content-manager" ? { routes } : undefined) });

test("the preview-URL route gets the may-preview policy after Strapi's own", () => {
  const route = {
    method: "GET",
    path: "/preview/url/:contentType",
    config: { policies: ["admin::isAuthenticatedAdmin"] },
  };
  const other = { method: "GET", path: "/preview/script", config: { auth: false } };
  guardPreviewUrlRoute(strapiWith({ admin: { routes: [] }, preview: { type: "admin", routes: [route, other] } }));
  assert.deepEqual(route.config.policies, ["admin::isAuthenticatedAdmin", "global::may-preview"]);
  assert.deepEqual(other.config, { auth: false });
});

test("a content manager without that route stops the start (an upgrade renamed it): never unguarded", () => {
  assert.throws(
    () => guardPreviewUrlRoute(strapiWith({ preview: { routes: [{ path: "/preview/link/:uid", config: {} }] } })),
    /no \/preview\/url\/:contentType route to guard/,
  );
});
