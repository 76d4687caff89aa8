import { localized } from "../localized-routes.ts";

/** The blog's addresses, in every locale (docs/cms-contract.md, "Articles"). */
export default [
  ...localized("blog", "routes/blog.tsx", "routes/blog"),
  ...localized("blog/category/:category", "routes/blog.tsx", "routes/blog-category"),
  ...localized("blog/rss.xml", "routes/blog.rss.ts", "routes/blog.rss"),
  ...localized("blog/:slug", "routes/blog.$slug.tsx", "routes/blog.$slug"),
];
