import { describe, expect, it } from "vitest";

import { CONTENT_TYPES } from "./index.ts";
import { CONTENT_TYPE_MODULES, CONTENT_TYPE_REST_PATHS, CONTENT_TYPE_SECTIONS_POPULATE } from "./modules.server.ts";
import { checkRegisteredFolders, registered } from "./pick.ts";
import { CONTENT_TYPE_SECTION_COMPONENTS } from "./section-components.ts";

describe("the content types' registry", () => {
  it("takes the registered folders' parts, in the registration's order; an unregistered folder is left out", () => {
    const found = { "./other/module.server.ts": "other", "./blog/module.server.ts": "blog" };
    expect(registered(found, "module.server.ts")).toEqual(["blog"]);
    expect(registered({}, "sections.tsx")).toEqual([]);
  });

  it("a registered name without a folder stops the route config, naming it; any one file of it will do", () => {
    const files = CONTENT_TYPES.map((name) => `./content-types/${name}/routes.ts`);
    expect(() => checkRegisteredFolders(files, "./content-types")).not.toThrow();
    expect(() => checkRegisteredFolders(files.slice(1), "./content-types")).toThrow(
      `app/content-types/index.ts registers "${CONTENT_TYPES[0]}", but app/content-types/${CONTENT_TYPES[0]}/ has no files`,
    );
  });

  it("the blog is a registered module: its sitemap, Preview REST path and latest-articles section reach the readers", () => {
    expect(CONTENT_TYPES).toContain("blog");
    expect(CONTENT_TYPE_MODULES.map((module) => module.uid)).toContain("api::article.article");
    expect(CONTENT_TYPE_REST_PATHS).toMatchObject({ "api::article.article": "/api/articles" });
    expect(CONTENT_TYPE_SECTIONS_POPULATE).toHaveProperty("sections.latest-articles");
    expect(CONTENT_TYPE_SECTION_COMPONENTS).toHaveProperty("sections.latest-articles");
  });
});
