import { defineConfig } from "vitest/config";

// Two projects, one after the other (`sequence.groupOrder`):
// - unit: the tests beside the code (*.test.ts), no services, first and on every core, so their
//   result never waits for a Strapi; `npm run test:unit` runs them alone;
// - integration: tests/integration, real services (Strapi, the built site, Redis, Varnish), one
//   file at a time (timing-sensitive files never share the CPU with another file's Strapi).
// `npm test` runs both. The React Router Vite plugin is left out on purpose: no test here needs it.
export default defineConfig({
  test: {
    setupFiles: ["tests/support/vitest-setup.ts"],
    testTimeout: 15_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts"],
          maxWorkers: "100%",
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // The Strapi the files that can share one share (strapiSite(name, { sharedCms: true })).
          globalSetup: ["tests/support/shared-cms.ts"],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
