import { data, type RouterContextProvider } from "react-router";

import { errorPageText } from "../cms/error-page.ts";
import { localeConfigOf } from "../locales.server.ts";
import { configContext } from "../request-context.server.ts";

/**
 * The locale of a page routed as `:lang/<page>` (the auth pages) or without a prefix: the
 * default locale without one; a configured locale with one; a 404 for any other first segment
 * (`/xx/sign-in`), in the default locale's words, never cached (auth pages never are).
 */
export function pageLocale(params: { lang?: string }, context: Readonly<RouterContextProvider>): string {
  const config = localeConfigOf(context.get(configContext));
  if (params.lang === undefined) return config.defaultLocale;
  if (config.locales.includes(params.lang)) return params.lang;
  throw data(errorPageText("not-found", null, config.defaultLocale), {
    status: 404,
    headers: { "cache-control": "no-store" },
  });
}
