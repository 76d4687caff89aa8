import { describe, expect, it } from "vitest";

import { AUTH_ERROR_TRANSLATIONS, AUTH_ERRORS, authErrorFieldErrors, type AuthErrorCode } from "../auth/error-codes.ts";
import { languageName, MESSAGES, t, type MessageKey } from "./messages.ts";

// The locales the seed and the quick start configure (APP_LOCALES=en,de).
const SEED_LOCALES = ["en", "de"];
const keys = Object.keys(MESSAGES.en!) as MessageKey[];
const codes = Object.keys(AUTH_ERRORS) as AuthErrorCode[];

describe("the site's own words", () => {
  it.each(SEED_LOCALES)("%s has every key, each a non-empty text", (locale) => {
    const messages = MESSAGES[locale];
    expect(messages, locale).toBeDefined();
    expect(Object.keys(messages!).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(messages![key].trim(), key).not.toBe("");
  });

  it("German is German: no key left with its English words, apart from those that are the same", () => {
    const same = keys.filter((key) => MESSAGES.de![key] === MESSAGES.en![key]);
    expect(same).toEqual(["account.name", "field.name"]);
  });

  it("the blanks of each key are the same in every locale", () => {
    const blanks = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const locale of SEED_LOCALES) {
      for (const key of keys)
        expect(blanks(MESSAGES[locale]![key]), `${locale} ${key}`).toEqual(blanks(MESSAGES.en![key]));
    }
  });

  it("t() fills blanks, and gives the default locale's words for a locale it has none for", () => {
    expect(t("de", "signIn.title")).toBe("Anmelden");
    expect(t("en", "signIn.withProvider", { provider: "GitHub" })).toBe("Sign in with GitHub");
    expect(t("de", "signIn.withProvider", { provider: "GitHub" })).toBe("Mit GitHub anmelden");
    expect(t("fr", "signIn.title")).toBe("Sign in");
    expect(t("__proto__", "signIn.title")).toBe("Sign in");
    // A blank without a value stays visible rather than turning into "undefined".
    expect(t("en", "forgotPassword.sent")).toContain("{email}");
  });

  it("names each language in its own language", () => {
    expect(languageName("en")).toBe("English");
    expect(languageName("de")).toBe("Deutsch");
    expect(languageName("fr")).toBe("Français");
    expect(languageName("not a locale")).toBe("not a locale");
  });
});

describe("the auth error messages in German", () => {
  it("has every code of the table, with the table's field names", () => {
    const german = AUTH_ERROR_TRANSLATIONS.de!;
    expect(Object.keys(german).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      expect(Object.keys(authErrorFieldErrors(code, "de")), code).toEqual(Object.keys(authErrorFieldErrors(code)));
    }
  });
});
