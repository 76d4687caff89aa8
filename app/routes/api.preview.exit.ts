import { getEnv } from "../lib/env.server.ts";
import { clearPreviewCookie, PREVIEW_NO_STORE } from "../lib/preview/preview-cookie.server.ts";
import { exitLocation } from "../lib/preview/preview-request.server.ts";

/**
 * GET /api/preview/exit?path=…: ends the preview (clears the cookie) and leads back to the page
 * (a path on this site only) or the home page. The preview bar links here.
 */
export function loader({ request }: { request: Request }) {
  return new Response(null, {
    status: 303,
    headers: {
      ...PREVIEW_NO_STORE,
      location: exitLocation(new URL(request.url).searchParams),
      "set-cookie": clearPreviewCookie(getEnv().APP_PUBLIC_URL),
    },
  });
}
