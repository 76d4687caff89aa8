// One ESLint config for the site, its server, tests, benchmarks and scripts (the CMS in cms/
// is linted with the same rules for its plain JavaScript). `npm run lint` runs it beside
// Prettier's check; both are part of `npm run test:all`.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      // The plain React Router yardstick's build (npm run bench:render makes it).
      "bench/plain-react-router/build/",
      "bench/plain-react-router/.react-router/",
      "cms/build/",
      // The workspace packages' built JavaScript (npm run build in each).
      "packages/*/dist/",
      "cms/dist/",
      "cms/.strapi/",
      "cms/.tmp/",
      "cms/types/generated/",
      "cms/public/",
      "playwright-report/",
      "test-results/",
      "**/node_modules/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed names are deliberately unused (a parameter a signature requires).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // Refusing control characters in paths and headers is the point of several patterns.
      "no-control-regex": "off",
    },
  },
  {
    // The workspace packages are used by their package names only (their one entry point), never by
    // a path into packages/: the site then uses them as a stranger's app would (decision 0046).
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "bench/**/*.ts", "tests/**/*.ts", "scripts/**/*.{js,mjs,ts}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/packages/*", "**/packages/*/**"],
              message: "Import the package by its name (@cms-site/...).",
            },
          ],
        },
      ],
    },
  },
  {
    // A package imports nothing from the site that uses it: its policy is passed in (decision 0046).
    files: ["packages/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/app/**", "**/server/**", "**/tests/**"],
              message: "A package imports nothing from the site: take it as an option.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read loosely typed JSON answers (`Record<string, any>`) on purpose.
    files: ["tests/**/*.ts", "**/*.test.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The React app: hooks rules, browser globals. Route modules export loader/action/meta
    // beside their component, as React Router's conventions want.
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The CMS is CommonJS JavaScript (Strapi's own layout).
    files: [
      "cms/**/*.js",
      "tests/fixtures/*/cms/**/*.js",
      "packages/strapi-plugin-*/server/**/*.js",
      "packages/strapi-plugin-*/strapi-server.js",
      "tests/fixtures/strapi-fixture-project/**/*.js",
    ],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node, strapi: "readonly" } },
    rules: {
      "@typescript-eslint/no-require-imports": "off",
      // `const crypto = require("node:crypto")` names a module, not a clash with the global.
      "no-redeclare": ["error", { builtinGlobals: false }],
    },
  },
  {
    // The admin side of the CMS's local plugins (and any app-level admin extension): ES modules
    // with JSX, React components and hooks.
    files: [
      "cms/src/admin/**/*.{js,jsx}",
      "cms/src/plugins/*/admin/**/*.{js,jsx}",
      "cms/src/plugins/*/strapi-admin.js",
      "packages/strapi-plugin-*/admin/**/*.{js,jsx}",
      "packages/strapi-plugin-*/strapi-admin.mjs",
    ],
    plugins: { "react-hooks": reactHooks },
    languageOptions: {
      sourceType: "module",
      globals: { ...globals.browser },
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // One way to log (docs/decisions/0049): the logger is made where the process starts and handed
    // down (a parameter, the router context's logContext); code depends on app/lib/log.ts's `Log`.
    // Nothing else imports the module that makes it, so no module-level logger can come back.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    ignores: [
      "server/index.ts",
      "server/request-log.ts",
      "app/lib/logger.server.ts",
      "app/lib/logger.server.test.ts",
      "app/lib/env.server.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/logger.server", "**/logger.server.ts"],
              message:
                "Take a `Log` (app/lib/log.ts) as a parameter, or `context.get(logContext)` in a loader or action: the process's logger is made in server/index.ts only (docs/decisions/0049).",
            },
          ],
        },
      ],
    },
  },
);
