import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// Silences one deprecation warning about @react-router/dev's own Vite servers; see the file.
import "./scripts/quiet-vite-envfile.mjs";

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // The server build's entry is our request handler (server/app.ts), which wraps
    // React Router's handler; server/index.ts imports it from build/server/index.js.
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
  },
  plugins: [reactRouter()],
}));
