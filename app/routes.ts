import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  route("api/auth/*", "routes/api.auth.$.ts"),
  route("api/cms-proxy/*", "routes/api.cms-proxy.$.ts"),
  route("api/preview", "routes/api.preview.ts"),
  route("api/preview/exit", "routes/api.preview.exit.ts"),
  route("sign-in", "routes/sign-in.tsx"),
  route("register", "routes/register.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("account", "routes/account.tsx"),
  route("sign-out", "routes/sign-out.tsx"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
  route("uploads/*", "routes/uploads.$.ts"),
  // Every path that no other route claims is a CMS page (or a CMS redirect, or a 404),
  // in any locale. The home page needs its own entry: a splat does not match `/`.
  index("routes/cms-page.tsx", { id: "routes/cms-home" }),
  route("*", "routes/cms-page.tsx"),
] satisfies RouteConfig;
