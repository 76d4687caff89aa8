import type { CmsClient } from "../lib/cms/client.server.ts";
import { CmsError } from "../lib/cms/errors.server.ts";
import { registered } from "./pick.ts";
import type { ContentTypeServer, SectionContext, SectionDefinition } from "./types.ts";

/**
 * The server side of the registered content types (app/content-types/index.ts): what the sitemap,
 * the preview's draft versions and a page's sections read. Found by Vite in each type's folder, so
 * registering a type is its one line in index.ts. A type with a route only (no sitemap entries, no
section) needs no module.server.ts. Only Vite-built code may import this (a page's
 * loader, a resource route): `import.meta.glob` is Vite's, not Node's.
 */
const found = import.meta.glob<ContentTypeServer>("./*/module.server.ts", { eager: true, import: "default" });

export const CONTENT_TYPE_MODULES: readonly ContentTypeServer[] = registered(found, "module.server.ts");

const SECTIONS = new Map<string, SectionDefinition>(
  CONTENT_TYPE_MODULES.flatMap((module) => Object.entries(module.sections ?? {})),
);

/** The REST path each type with a Preview button is read at, by UID (the pages' added by the caller). */
export const CONTENT_TYPE_REST_PATHS: Readonly<Record<string, string>> = Object.fromEntries(
  CONTENT_TYPE_MODULES.flatMap((module) => (module.restPath ? [[module.uid, module.restPath]] : [])),
);

/** `populate[sections][on][<component>]` of the types' sections, for the page's query (findPage). */
export const CONTENT_TYPE_SECTIONS_POPULATE: Readonly<Record<string, unknown>> = Object.fromEntries(
  [...SECTIONS].map(([uid, section]) => [uid, section.populate]),
);

/** A section of the page some type brings, checked against that type's schema. */
export interface TypedSection {
  index: number;
  uid: string;
  definition: SectionDefinition;
  data: unknown;
}

/**
 * The page's sections that a registered type brings (the core's are app/lib/cms/sections.server.ts's),
 * each checked: a section the CMS sends in another shape is a "bad-response", as a core section's is.
 */
export function contentTypeSections(
  sections: ReadonlyArray<{ __component: string; fields?: unknown }>,
): TypedSection[] {
  return sections.flatMap((section, index) => {
    const definition = SECTIONS.get(section.__component);
    if (!definition || !("fields" in section)) return [];
    const parsed = definition.schema.safeParse(section.fields);
    if (!parsed.success) {
      throw new CmsError("bad-response", `The CMS sent a ${section.__component} section in an unexpected shape.`, {
        cause: parsed.error,
      });
    }
    return [{ index, uid: section.__component, definition, data: parsed.data }];
  });
}

/** What each section's `load` read (one CMS call each, all at once), by the section's index. */
export async function loadContentTypeSections(
  cms: CmsClient,
  sections: readonly TypedSection[],
  locale: string,
): Promise<Map<number, unknown>> {
  const withLoad = sections.filter((section) => section.definition.load);
  const loaded = await Promise.all(withLoad.map((section) => section.definition.load!(cms, section.data, locale)));
  return new Map(withLoad.map((section, at) => [section.index, loaded[at]]));
}

/** A section as its component renders it, or null when no registered type brings it. */
export function prepareContentTypeSection(
  section: TypedSection | undefined,
  loaded: ReadonlyMap<number, unknown>,
  context: SectionContext,
): ({ __component: string } & object) | null {
  if (!section) return null;
  const prepared = section.definition.prepare(section.data, loaded.get(section.index), context);
  return { ...prepared, __component: section.uid };
}
