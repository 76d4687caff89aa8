import { reactRouter } from "@react-router/dev/vite";
import { defaultClientConditions, defaultServerConditions, defineConfig } from "vite";

/** The workspace packages (packages/*) are read from their TypeScript sources: docs/decisions/0046. */
const SOURCE_CONDITION = "@cms-site/source";

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
  environments: {
    // The server build's entry is our request handler (server/app.ts), which wraps
    // React Router's handler; server/index.ts imports it from build/server/index.js.
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
  },
  plugins: [reactRouter()],
});
