import { data, type RouterContextProvider } from "react-router";

import type { CmsFetchOptions } from "./cms/client.server.ts";
import type { Env } from "./env.server.ts";
import { loadErrorText } from "./cms/error-page.server.ts";
import { parseLocalePath, type LocaleConfig } from "./locale-path.ts";
import { localeConfigOf } from "./locales.server.ts";
import { NO_STORE_ANYWHERE } from "./no-store.ts";
import { cmsAdminOrigin } from "./preview/cms-admin-origin.ts";
import { isPreviewRequest } from "./preview/preview-cookie.server.ts";
import { cmsContext, configContext, logContext, markDynamic } from "./request-context.server.ts";

/**
 * What a route that shows a content type needs besides its CMS queries (the blog's routes, and
 * yours: docs/add-a-content-type.md): the request's CMS client and logger, the locales, the site's
 * origin and media base; the locale of an address; the 404 answer with the CMS's words; preview.
 */

export function contentRouteContext(context: Readonly<RouterContextProvider>) {
  const env = context.get(configContext);
  return {
    cms: context.get(cmsContext),
    log: context.get(logContext),
    env,
    config: localeConfigOf(env),
    origin: new URL(env.APP_PUBLIC_URL).origin,
    mediaBase: env.CMS_MEDIA_URL ?? null,
  };
}

/**
 * The locale of `pathname` when it is `expected` (a path without locale, `/blog`) in some locale
 * (`/blog`, `/en/blog`, `/de/blog`), else null: a route mounted as `:lang/blog` also matches
 * `/company/blog`, which is no address of it.
 */
export function pathLocale(pathname: string, expected: string, config: LocaleConfig): string | null {
  const target = parseLocalePath(pathname, config);
  return target && target.fullPath === expected ? target.locale : null;
}

/**
 * A 404 answer (for the caller to throw) with the CMS's not-found words in `locale`; in preview,
 * with the preview's no-store headers (`preview.headers`).
 */
export async function contentNotFound(
  context: Readonly<RouterContextProvider>,
  locale: string,
  preview?: ContentPreview | null,
) {
  return data(await loadErrorText(context, "not-found", locale), { status: 404, headers: preview?.headers });
}

/** What a render in preview needs: the draft read, the answer's headers, the preview bar's exit link. */
export interface ContentPreview {
  /** For the CMS call of the entry the address shows (`findPage`, `findArticle`): its draft. */
  draft: NonNullable<CmsFetchOptions["draft"]>;
  /** `private, no-store` for the browser and every CDN (the loader's answer and its 404). */
  headers: typeof NO_STORE_ANYWHERE;
  /** The preview bar's "Exit preview" link: back to this address, as everybody sees it. */
  exitHref: string;
  /** The CMS admin's origin, the only sender whose `strapiUpdate` refreshes the preview (app/lib/preview/live-preview.ts). */
  adminOrigin: string;
}

/**
 * Preview (docs/cms-contract.md, "Preview"): for a request with a valid preview cookie opened for
 * this address (`url`), the draft
 * (read with CMS_PREVIEW_API_TOKEN, else the read-only key), no-store headers and the exit link,
 * and the render marked personal (never stored; the page cache does not answer such a request
 * either: server/page-cache-policy.ts); otherwise null. Every route that shows an entry of a type
 * with a Preview button (its site-cache `path`) calls it.
 */
export function contentPreview(
  request: Request,
  context: Readonly<RouterContextProvider>,
  url: URL,
): ContentPreview | null {
  const env = context.get(configContext);
  // Drafts only on the address the preview link was signed for; the same cookie elsewhere is a visitor's view.
  if (!isPreviewRequest(request, env.CMS_PREVIEW_SECRET, env.APP_PUBLIC_URL, url.pathname)) return null;
  markDynamic(context);
  return {
    draft: previewDraftCredential(env),
    headers: NO_STORE_ANYWHERE,
    exitHref: `/api/preview/exit?${new URLSearchParams({ path: url.pathname })}`,
    adminOrigin: cmsAdminOrigin(env),
  };
}

/** The API token that reads drafts: CMS_PREVIEW_API_TOKEN, else the read-only key. */
export function previewDraftCredential(
  env: Pick<Env, "CMS_PREVIEW_API_TOKEN" | "CMS_REST_READONLY_API_KEY">,
): NonNullable<CmsFetchOptions["draft"]> {
  return env.CMS_PREVIEW_API_TOKEN
    ? { apiToken: env.CMS_PREVIEW_API_TOKEN, variable: "CMS_PREVIEW_API_TOKEN" }
    : { apiToken: env.CMS_REST_READONLY_API_KEY, variable: "CMS_REST_READONLY_API_KEY" };
}
