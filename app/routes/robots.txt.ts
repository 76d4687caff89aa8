import type { Route } from "./+types/robots.txt";
import { configContext } from "../lib/request-context.server.ts";

/**
 * GET /robots.txt, from a route rather than a file in public/: the sitemap's address must be
 * absolute, and it depends on APP_PUBLIC_URL.
 */
export function loader({ context }: Route.LoaderArgs) {
  const origin = new URL(context.get(configContext).APP_PUBLIC_URL).origin;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    "Disallow: /account",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ];
  return new Response(body.join("\n"), {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
