import { defineConfig } from "vitest/config";

// Unit tests live beside the code (*.test.ts); tests/integration starts real services.
// The React Router Vite plugin is left out on purpose: no test here needs it.
export default defineConfig({
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    testTimeout: 15_000,
  },
});
