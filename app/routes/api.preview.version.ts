import type { Route } from "./+types/api.preview.version";
import { CmsError } from "../lib/cms/errors.server.ts";
import { previewDraftCredential } from "../lib/content-route.server.ts";
import { parseLocalePath } from "../lib/locale-path.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { NO_STORE_ANYWHERE } from "../lib/no-store.ts";
import { draftVersion } from "../lib/preview/draft-version.server.ts";
import { canonicalPathname, previewScopeOf } from "../lib/preview/preview-cookie.server.ts";
import { cmsContext, configContext } from "../lib/request-context.server.ts";

/**
 * GET /api/preview/version?path=/company: the version (`updatedAt`) of the draft the page at
 * `path` shows in preview, as `{ "version": "…" | null }`; the page in preview polls it to follow
 * saves made in the CMS's edit view (app/lib/preview/draft-version-poll.ts, docs/live-preview.md).
 *
 * Answered only to a request with a valid preview cookie opened for that very address, as the
 * page's drafts are (403 otherwise: a date of a draft is a draft's, and another address's draft is
 * not this cookie's to watch). Never stored: `private, no-store`, and /api/* is never in the page
 * cache (server/app.ts). One field of one document: cheap enough to ask for every few seconds.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const env = context.get(configContext);
  const path = new URL(request.url).searchParams.get("path");
  if (!path || !path.startsWith("/") || path.length > 2048) {
    return answer(400, { error: "path is missing: the address of the page in preview, such as /company." });
  }
  const scope = previewScopeOf(request, env.CMS_PREVIEW_SECRET, env.APP_PUBLIC_URL);
  if (!scope || scope.path !== canonicalPathname(path)) {
    return answer(403, {
      error: "This address is not in preview in this browser: open the preview again from the CMS.",
    });
  }
  const target = parseLocalePath(scope.path, localeConfigOf(env));
  if (!target) return answer(404, { error: "This address is no page of this site." });
  try {
    const version = await draftVersion(context.get(cmsContext), scope, target.locale, previewDraftCredential(env));
    return answer(200, { version });
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    // The page keeps what it shows and asks again later (it backs off on failures).
    return answer(error.status === 503 ? 503 : 502, {
      error: "The CMS did not answer; the preview asks again shortly.",
    });
  }
}

function answer(status: number, body: Record<string, unknown>) {
  return Response.json(body, { status, headers: NO_STORE_ANYWHERE });
}
