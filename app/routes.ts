import { type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Every other path is a CMS page (or a CMS redirect, or a 404), in any locale.
  route("*", "routes/cms-page.tsx"),
] satisfies RouteConfig;
