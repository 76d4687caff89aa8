import type { Route } from "./+types/api.preview";
import { localeConfigOf } from "../lib/locales.server.ts";
import { NO_STORE_ANYWHERE } from "../lib/no-store.ts";
import { previewCookies } from "../lib/preview/preview-cookie.server.ts";
import { readPreviewRequest } from "../lib/preview/preview-request.server.ts";
import { configContext } from "../lib/request-context.server.ts";

/**
 * GET /api/preview?path=…&locale=…&status=draft|published&type=…&document=…&expires=…&signature=…:
 * where the CMS admin's Preview (cms/config/admin.js) points. `draft` sets the signed preview
 * cookie for that page and redirects to it, which then shows its draft (other pages stay published); `published` clears it and redirects to the page as
 * everybody sees it (with the published-view cookie, so the admin's iframe may still show it).
 * docs/cms-contract.md, "Preview".
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const env = context.get(configContext);
  const asked = readPreviewRequest(new URL(request.url).searchParams, env.CMS_PREVIEW_SECRET, localeConfigOf(env));
  if (!asked.ok) {
    return new Response(`${asked.message}\n`, {
      status: asked.status,
      headers: { ...NO_STORE_ANYWHERE, "content-type": "text/plain; charset=utf-8" },
    });
  }
  const headers = new Headers({ ...NO_STORE_ANYWHERE, location: asked.location });
  // The cookie opens drafts of this one address only: the page the link was signed for.
  const mode = asked.enter
    ? { draft: { path: asked.location, type: asked.type, document: asked.document } }
    : "published";
  const cookies = previewCookies(mode, env.CMS_PREVIEW_SECRET!, env.APP_PUBLIC_URL);
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 307, headers });
}
