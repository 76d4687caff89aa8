import { data, type RouterContextProvider } from "react-router";

import { loadErrorText } from "./cms/error-page.server.ts";
import { parseLocalePath, type LocaleConfig } from "./locale-path.ts";
import { localeConfigOf } from "./locales.server.ts";
import { cmsContext, configContext } from "./request-context.server.ts";

/**
 * What a route that shows a content type needs besides its CMS queries (the blog's routes, and
 * yours: docs/add-a-content-type.md): the request's CMS client, the locales, the site's origin and
 * media base; the locale of an address; the 404 answer with the CMS's words.
 */

export function contentRouteContext(context: Readonly<RouterContextProvider>) {
  const env = context.get(configContext);
  return {
    cms: context.get(cmsContext),
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

/** A 404 answer (for the caller to throw) with the CMS's not-found words in `locale`. */
export async function contentNotFound(context: Readonly<RouterContextProvider>, locale: string) {
  return data(await loadErrorText(context, "not-found", locale), { status: 404 });
}
