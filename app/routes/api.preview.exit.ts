import type { Route } from "./+types/api.preview.exit";
import { NO_STORE_ANYWHERE } from "../lib/no-store.ts";
import { previewCookies } from "../lib/preview/preview-cookie.server.ts";
import { exitLocation } from "../lib/preview/preview-request.server.ts";
import { configContext } from "../lib/request-context.server.ts";

/**
 * GET /api/preview/exit?path=…: ends the preview (clears both preview cookies) and leads back to
 * the page (a path on this site only) or the home page. The preview bar links here.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const headers = new Headers({ ...NO_STORE_ANYWHERE, location: exitLocation(new URL(request.url).searchParams) });
  // Clearing needs no secret: the signed value of the draft cookie is not written.
  for (const cookie of previewCookies("none", "", context.get(configContext).APP_PUBLIC_URL))
    headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
