import { describe, expect, it } from "vitest";

import { AUTH_PAGES, type AuthPage } from "./auth/paths.ts";
import { routesHydrate } from "./hydration.ts";

const root = { handle: undefined, loaderData: { locale: "en" } };

describe("routesHydrate", () => {
  it("content routes (no auth page in their handle) do not hydrate, nor their errors", () => {
    expect(routesHydrate([root])).toBe(false);
    expect(routesHydrate([root, { handle: undefined, loaderData: undefined }])).toBe(false);
    // The blog's handle declares its cached query parameter, no auth page.
    expect(routesHydrate([root, { handle: { cacheQuery: {} }, loaderData: undefined }])).toBe(false);
    expect(routesHydrate([root, { handle: { authPage: "no-such-page" }, loaderData: undefined }])).toBe(false);
    expect(routesHydrate([root, { handle: undefined, loaderData: { page: {}, preview: null } }])).toBe(false);
  });

  it("a page in preview (its loader data carries preview) hydrates", () => {
    const preview = { page: {}, preview: { exitHref: "/api/preview/exit?path=%2F" } };
    expect(routesHydrate([root, { handle: undefined, loaderData: preview }])).toBe(true);
    expect(routesHydrate([root, { handle: { cacheQuery: {} }, loaderData: preview }])).toBe(true);
  });

  // The table is keyed by what the route modules say they are: each auth page's module must say it,
  // or its page would silently lose its client.
  const modules = import.meta.glob<{ handle?: { authPage?: AuthPage } }>("../routes/**/*.tsx");
  it.each(Object.entries(AUTH_PAGES))(
    "the %s page's route module (%s) names itself and hydrates",
    async (page, path) => {
      const load = modules[`../routes${path}.tsx`];
      expect(load, `no route module for ${path}`).toBeDefined();
      const module = await load!();
      expect(module.handle?.authPage).toBe(page);
      expect(routesHydrate([root, { handle: module.handle, loaderData: undefined }])).toBe(true);
    },
  );
});
