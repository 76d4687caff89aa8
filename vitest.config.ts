import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

import { RUNS_ALONE, pairedFiles } from "./tests/support/integration-groups.ts";

// Three projects, one group after the other (`sequence.groupOrder`):
// - unit: the tests beside the code (*.test.ts), no services, first and on every core, so their
//   result never waits for a Strapi; `npm run test:unit` runs them alone;
// - integration-pairs: the files of tests/integration (real services: Strapi, the built site,
//   Redis, Varnish, PostgreSQL) that may run beside another one, two at a time, one per core;
// - integration-alone: the rest, one file at a time: files whose assertions a neighbour's CPU or
//   writes would break, and any file not yet decided. Which is which, and why, is in
//   tests/support/integration-groups.ts.
// `npm test` runs all three; `npx vitest run --project 'integration-*'` the integration files.
// The React Router Vite plugin is left out on purpose: no test here needs it.
const stale = [...pairedFiles, ...Object.keys(RUNS_ALONE).map((file) => `tests/integration/${file}`)].filter(
  (file) => !existsSync(fileURLToPath(new URL(file, import.meta.url))),
);
if (stale.length) throw new Error(`tests/support/integration-groups.ts names files that are gone: ${stale.join(", ")}`);

// The Strapi the files that can share one share (strapiSite(name, { sharedCms: true })): listed by
// both integration projects, started once for both (tests/support/shared-cms.ts).
const globalSetup = ["tests/support/shared-cms.ts"];

export default defineConfig({
  // The workspace packages from their TypeScript sources, as tsx and Vite read them (decision 0046).
  resolve: { conditions: ["@cms-site/source", ...defaultServerConditions] },
  ssr: { resolve: { conditions: ["@cms-site/source", ...defaultServerConditions] } },
  test: {
    setupFiles: ["tests/support/vitest-setup.ts"],
    testTimeout: 15_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "app/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
            "packages/*/test/**/*.test.ts",
            "packages/*/src/**/*.test.ts",
          ],
          maxWorkers: "100%",
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration-pairs",
          include: pairedFiles,
          globalSetup,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration-alone",
          include: ["tests/integration/**/*.test.ts"],
          exclude: pairedFiles,
          globalSetup,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
