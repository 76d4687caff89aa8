/**
 * The title and text of the 404 page and of the error page: the CMS's Error page single type
 * (`api::error-page.error-page`, per locale) when it could be read, the site's own words
 * otherwise (the CMS is down, or nobody has written them in this locale yet). Pure: the
 * loaders read the CMS (error-page.server.ts), the error boundaries render the result.
 */

export type ErrorPageKind = "not-found" | "error";

/** The single type's fields; any of them may be missing or empty. */
export interface ErrorPageContent {
  notFoundTitle?: string | null;
  notFoundText?: string | null;
  errorTitle?: string | null;
  errorText?: string | null;
}

export interface ErrorText {
  title: string;
  message: string;
}

/** The built-in words, per locale; other locales get the English ones. */
export const FALLBACK_ERROR_TEXT: Record<string, Record<ErrorPageKind, ErrorText>> = {
  en: {
    "not-found": { title: "Page not found", message: "There is no page at this address." },
    error: { title: "Something went wrong", message: "This page could not be loaded. Please try again later." },
  },
  de: {
    "not-found": { title: "Seite nicht gefunden", message: "Unter dieser Adresse gibt es keine Seite." },
    error: {
      title: "Etwas ist schiefgelaufen",
      message: "Diese Seite konnte nicht geladen werden. Bitte versuchen Sie es später noch einmal.",
    },
  },
};

const nonEmpty = (value: string | null | undefined): string | null => (value?.trim() ? value.trim() : null);

/**
 * The words for an error of `kind` in `locale`: each of title and text from the CMS when it
 * gave one, else the built-in one (never a CMS title with a built-in text of another language:
 * both fall back together).
 */
export function errorPageText(kind: ErrorPageKind, content: ErrorPageContent | null, locale: string): ErrorText {
  const fallback = (FALLBACK_ERROR_TEXT[locale] ?? FALLBACK_ERROR_TEXT.en!)[kind];
  const title = nonEmpty(kind === "not-found" ? content?.notFoundTitle : content?.errorTitle);
  const message = nonEmpty(kind === "not-found" ? content?.notFoundText : content?.errorText);
  return title && message ? { title, message } : fallback;
}

/** Title and message of a thrown payload, when it carries them. */
export function errorPayloadText(payload: unknown): Partial<ErrorText> {
  if (!payload || typeof payload !== "object") return {};
  const { title, message } = payload as Record<string, unknown>;
  return {
    ...(typeof title === "string" ? { title } : {}),
    ...(typeof message === "string" ? { message } : {}),
  };
}
