import type { Env } from "./env.server.ts";
import type { LocaleConfig } from "./locale-path.ts";

/** The site's locales, from the configuration. */
export function localeConfigOf(config: Pick<Env, "APP_LOCALES" | "APP_DEFAULT_LOCALE">): LocaleConfig {
  return { locales: config.APP_LOCALES, defaultLocale: config.APP_DEFAULT_LOCALE };
}
