import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { ARTICLE_SORT } from "./articles.server.ts";

// The CMS revalidates an article's neighbours in its type's declared order (the `site-cache`
// declaration in the article schema, docs/cms-contract.md "Revalidation"); an article page's
// previous/next links record those two articles and its neighbours tag, not the list (dependsOn). The two orders
// must be one: were they not, a publish would revalidate the wrong neighbours and an article page
// would keep links to articles that are no longer next to it.
const schemaFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../cms/src/api/article/content-types/article/schema.json",
);

describe("the article order", () => {
  it("the CMS's declaration (pluginOptions.site-cache.order of the article type) is the site's ARTICLE_SORT", () => {
    const schema = JSON.parse(readFileSync(schemaFile, "utf8")) as {
      pluginOptions?: { "site-cache"?: { order?: unknown } };
    };
    expect(schema.pluginOptions?.["site-cache"]?.order, `${schemaFile}: pluginOptions.site-cache.order`).toEqual(
      ARTICLE_SORT,
    );
  });
});
