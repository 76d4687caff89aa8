// @react-router/dev 7.18.4 (pinned) creates its own Vite servers (the one that reads
// react-router.config.ts, and the child compiler) with `envFile: false`, which Vite 8.1 and later
// report as deprecated: "please use `envDir: false` instead", several times on every
// `npm run dev`, `npm run build` and `npm run typecheck`, about code that is not ours. Those
// servers take no logger of ours (react-router's config loader makes its own), so this drops
// exactly that message from console.warn, where Vite's logger writes warnings; every other
// warning passes. Loaded by vite.config.ts (dev, build, typegen), and by `node --import` in
// package.json's build script: `react-router build` starts its first server before it reads
// vite.config.ts.
// Remove this file, its import in vite.config.ts and the --import in package.json when
// upgrading to @react-router/dev 8, which passes `envDir: false` (remix-run/react-router#15230).
// tests/integration/startup.test.ts fails if the message is printed again.
export const ENV_FILE_WARNING = "The `envFile` option is deprecated, please use `envDir: false` instead.";

const installed = Symbol.for("cms-site.quiet-vite-envfile");
if (!globalThis[installed]) {
  globalThis[installed] = true;
  const warn = console.warn.bind(console);
  console.warn = (...args) => {
    if (typeof args[0] === "string" && args[0].includes(ENV_FILE_WARNING)) return;
    warn(...args);
  };
}
