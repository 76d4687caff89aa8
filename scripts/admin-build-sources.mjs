// What the CMS's admin build (`strapi build`, into cms/build) is made from, so the quick start
// and the tests rebuild it only when one of these changed: the lock file, the plugin list, and
// the admin side of each local plugin (cms/src/plugins/<name>/admin/, strapi-admin.js,
// package.json).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** @param {string} cmsRoot */
export function adminBuildSources(cmsRoot) {
  const pluginsDir = path.join(cmsRoot, "src/plugins");
  const plugins = existsSync(pluginsDir)
    ? readdirSync(pluginsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())
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
