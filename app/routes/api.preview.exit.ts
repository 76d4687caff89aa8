import { getEnv } from "../lib/env.server.ts";
import { PREVIEW_NO_STORE, previewCookies } from "../lib/preview/preview-cookie.server.ts";
import { exitLocation } from "../lib/preview/preview-request.server.ts";

/**
 * GET /api/preview/exit?path=…: ends the preview (clears both preview cookies) and leads back to
 * the page (a path on this site only) or the home page. The preview bar links here.
 */
export function loader({ request }: { request: Request }) {
  const headers = new Headers({ ...PREVIEW_NO_STORE, location: exitLocation(new URL(request.url).searchParams) });
  // Clearing needs no secret: the signed value of the draft cookie is not written.
  for (const cookie of previewCookies("none", "", getEnv().APP_PUBLIC_URL)) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
