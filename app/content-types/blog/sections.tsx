import type { ContentTypeComponents } from "../types.ts";
import { LatestArticles } from "./latest-articles.tsx";

/** The blog's sections on pages: their components (the server's side is module.server.ts). */
export default { "sections.latest-articles": LatestArticles } satisfies ContentTypeComponents;
