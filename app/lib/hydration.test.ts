import { describe, expect, it } from "vitest";

import { AUTH_PAGES, type AuthPage } from "./auth/paths.ts";
import { routesHydrate } from "./hydration.ts";

const root = { handle: undefined };

describe("routesHydrate", () => {
  it("content routes (no auth page in their handle) do not hydrate, nor their errors", () => {
    expect(routesHydrate([root])).toBe(false);
    expect(routesHydrate([root, { handle: undefined }])).toBe(false);
    // The blog's handle declares its cached query parameter, no auth page.
    expect(routesHydrate([root, { handle: { cacheQuery: {} } }])).toBe(false);
    expect(routesHydrate([root, { handle: { authPage: "no-such-page" } }])).toBe(false);
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
      expect(routesHydrate([root, { handle: module.handle }])).toBe(true);
    },
  );
});
