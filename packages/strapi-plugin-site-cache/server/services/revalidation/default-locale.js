"use strict";

/** How long the default locale read from i18n is kept. */
const KEPT_MS = 60_000;

/** i18n's default locale, read at most once a minute; "en" while i18n cannot say. */
function cachedDefaultLocale(strapi) {
  let cached = { value: null, at: 0 };
  return async function defaultLocale() {
    if (cached.value && Date.now() - cached.at < KEPT_MS) return cached.value;
    let value = "en";
    try {
      value = (await strapi.plugin("i18n").service("locales").getDefaultLocale()) || "en";
    } catch {
      // i18n not ready: keep 'en'
    }
    cached = { value, at: Date.now() };
    return value;
  };
}

module.exports = { cachedDefaultLocale };
