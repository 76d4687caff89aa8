import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  environments: {
    // The server build's entry is our request handler (server/app.ts), which wraps
    // React Router's handler; server/index.ts imports it from build/server/index.js.
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
  },
  plugins: [reactRouter()],
});
