import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  route("api/cms-revalidate", "routes/api.cms-revalidate.ts"),
  // Every path that no other route claims is a CMS page (or a CMS redirect, or a 404),
  // in any locale. The home page needs its own entry: a splat does not match `/`.
  index("routes/cms-page.tsx", { id: "routes/cms-home" }),
  route("*", "routes/cms-page.tsx"),
] satisfies RouteConfig;
