// What the CMS's admin build (`strapi build`, into cms/build) is made from, so the quick start
// and the tests rebuild it only when one of these changed: the lock file, the plugin list, the
// admin side of each local plugin (cms/src/plugins/<name>/admin/, strapi-admin.js,
// package.json) and of each plugin package installed from ../packages
// (cms/node_modules/@cms-site/<name>/: copies, renewed by scripts/install.sh).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** @param {string} cmsRoot */
export function adminBuildSources(cmsRoot) {
  const pluginsDir = path.join(cmsRoot, "src/plugins");
  const plugins = existsSync(pluginsDir)
    ? readdirSync(pluginsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    : [];
  const packagesDir = path.join(cmsRoot, "node_modules/@cms-site");
  const packages = existsSync(packagesDir)
    ? readdirSync(packagesDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    : [];
  return [
    path.join(cmsRoot, "package-lock.json"),
    path.join(cmsRoot, "config/plugins.js"),
    ...plugins.flatMap((entry) => {
      const plugin = path.join(pluginsDir, entry.name);
      const admin = path.join(plugin, "admin");
      return [
        ...(existsSync(admin) ? listFiles(admin) : []),
        path.join(plugin, "strapi-admin.js"),
        path.join(plugin, "package.json"),
      ];
    }),
    ...packages.flatMap((entry) => {
      const installed = path.join(packagesDir, entry.name);
      const admin = path.join(installed, "admin");
      return [
        ...(existsSync(admin) ? listFiles(admin) : []),
        path.join(installed, "strapi-admin.mjs"),
        path.join(installed, "package.json"),
      ];
    }),
  ].filter((file) => existsSync(file));
}

/** Whether cms/build/index.html is newer than every source of the admin build. */
export function adminBuildIsCurrent(/** @type {string} */ cmsRoot) {
  const index = path.join(cmsRoot, "build/index.html");
  if (!existsSync(index)) return false;
  const newest = Math.max(...adminBuildSources(cmsRoot).map((file) => statSync(file).mtimeMs));
  return statSync(index).mtimeMs > newest;
}

function listFiles(/** @type {string} */ dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
