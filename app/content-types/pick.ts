import { CONTENT_TYPES } from "./index.ts";

/**
 * The registered types' parts of one kind, in the registration's order, from what Vite's
 * `import.meta.glob` found (`./<name>/<file>`). A folder not registered is left out; a registered
 * name whose folder lacks a file every type must have fails at the start, naming it.
 */
export function registered<T>(
  found: Record<string, T>,
  file: string,
  { required, prefix = "." }: { required: boolean; prefix?: string },
): T[] {
  return CONTENT_TYPES.flatMap((name) => {
    const part = found[`${prefix}/${name}/${file}`];
    if (part !== undefined) return [part];
    if (required)
      throw new Error(
        `app/content-types/index.ts registers "${name}", but app/content-types/${name}/${file} is missing`,
      );
    return [];
  });
}
