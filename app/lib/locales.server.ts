import { getEnv } from "./env.server.ts";
import type { LocaleConfig } from "./locale-path.ts";

export function localeConfig(): LocaleConfig {
  const env = getEnv();
  return { locales: env.APP_LOCALES, defaultLocale: env.APP_DEFAULT_LOCALE };
}
