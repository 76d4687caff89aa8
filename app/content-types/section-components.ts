import { registered } from "./pick.ts";
import type { ContentTypeComponents } from "./types.ts";

/**
 * The section components of the registered content types (app/content-types/index.ts), by
 * component UID: the page's section registry renders them (app/components/sections/registry.tsx),
 * on the server and in the browser. A type without sections has no `sections.tsx`.
 */
const found = import.meta.glob<ContentTypeComponents>("./*/sections.tsx", { eager: true, import: "default" });

export const CONTENT_TYPE_SECTION_COMPONENTS: ContentTypeComponents = Object.assign(
  {},
  ...registered(found, "sections.tsx"),
);
