import { data, type RouterContextProvider } from "react-router";

import type { ArticleSummary } from "../cms/articles.server.ts";
import { loadErrorText } from "../cms/error-page.server.ts";
import { parseLocalePath, type LocaleConfig } from "../locale-path.ts";
import { localeConfigOf } from "../locales.server.ts";
import { configContext } from "../request-context.server.ts";
import { articleCard, type ArticleCard } from "./cards.ts";

/**
 * What the blog's routes share: the locale of the address (or a 404 for an address that is not
 * the blog's in any locale: `/company/blog` matches `:lang/blog` but is no blog), the 404 answer
 * with the CMS's words, and the article cards.
 */

export function blogContext(context: Readonly<RouterContextProvider>) {
  const env = context.get(configContext);
  const config = localeConfigOf(env);
  return { env, config, origin: new URL(env.APP_PUBLIC_URL).origin, mediaBase: env.CMS_MEDIA_URL ?? null };
}

/** A 404 answer (thrown by the caller) with the CMS's not-found words in `locale`. */
export async function blogNotFound(context: Readonly<RouterContextProvider>, locale: string) {
  return data(await loadErrorText(context, "not-found", locale), { status: 404 });
}

/**
 * The locale of `pathname` when it is `expected` (a blog path without locale) in some locale
 * (`/blog`, `/en/blog`, `/de/blog`), else null.
 */
export function blogLocale(pathname: string, expected: string, config: LocaleConfig): string | null {
  const target = parseLocalePath(pathname, config);
  return target && target.fullPath === expected ? target.locale : null;
}

export function articleCards(
  articles: readonly ArticleSummary[],
  options: { base: string | null; config: LocaleConfig; eagerFirst: boolean },
): ArticleCard[] {
  return articles.map((article, index) =>
    articleCard(article, { base: options.base, config: options.config, lazy: !(options.eagerFirst && index === 0) }),
  );
}
