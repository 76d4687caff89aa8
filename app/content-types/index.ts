/**
 * The site's content types beyond its CMS pages: one line each, the name of a folder of
 * app/content-types/ (docs/add-a-content-type.md). The sitemap, the sections of a page, the
 * preview's draft versions and the routes read a type's parts from its folder because it is named
 * here, in this order (the sitemap lists the types in it, after the pages).
 */
export const CONTENT_TYPES = [
  "blog",
  // Your content types go here (docs/add-a-content-type.md).
] as const;
