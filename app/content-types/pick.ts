import { CONTENT_TYPES } from "./index.ts";

/**
 * The registered types' parts of one kind, in the registration's order, from what Vite's
 * `import.meta.glob` found (`./<name>/<file>`). A folder not registered is left out. Each part is
 * optional (a type may have no section, no sitemap, no page of its own); a registered name with no
 * folder at all stops the build (checkRegisteredFolders, from app/routes.ts).
 */
export function registered<T>(found: Record<string, T>, file: string, prefix = "."): T[] {
  return CONTENT_TYPES.flatMap((name) => {
    const part = found[`${prefix}/${name}/${file}`];
    return part === undefined ? [] : [part];
  });
}

/**
 * Every registered name has a folder with at least one file in it (`files`: the paths Vite's glob
 * found, `<prefix>/<name>/<file>`): a misspelt registration stops the route config, so the build,
 * the typecheck and the development server, naming it, instead of leaving the type out.
 */
export function checkRegisteredFolders(files: readonly string[], prefix = "."): void {
  for (const name of CONTENT_TYPES) {
    if (!files.some((file) => file.startsWith(`${prefix}/${name}/`))) {
      throw new Error(`app/content-types/index.ts registers "${name}", but app/content-types/${name}/ has no files`);
    }
  }
}
