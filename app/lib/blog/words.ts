export interface BlogWords {
  blog: string;
  blogDescription: string;
  newer: string;
  older: string;
  previous: string;
  next: string;
  by: string;
  in: string;
  allArticles: string;
  pageOf: (page: number, count: number) => string;
  noArticles: string;
  feed: string;
}

/** The blog's built-in words, per locale (English for any other). */
const WORDS: Record<string, BlogWords> = {
  en: {
    blog: "Blog",
    blogDescription: "News and stories from Acme.",
    newer: "Newer articles",
    older: "Older articles",
    previous: "Previous article",
    next: "Next article",
    by: "By",
    in: "In",
    allArticles: "All articles",
    pageOf: (page: number, count: number) => `Page ${page} of ${count}`,
    noArticles: "No articles yet.",
    feed: "RSS feed",
  },
  de: {
    blog: "Blog",
    blogDescription: "Neuigkeiten und Geschichten von Acme.",
    newer: "Neuere Artikel",
    older: "Ältere Artikel",
    previous: "Vorheriger Artikel",
    next: "Nächster Artikel",
    by: "Von",
    in: "In",
    allArticles: "Alle Artikel",
    pageOf: (page: number, count: number) => `Seite ${page} von ${count}`,
    noArticles: "Noch keine Artikel.",
    feed: "RSS-Feed",
  },
};

export function blogWords(locale: string): BlogWords {
  return WORDS[locale] ?? WORDS.en!;
}

/** An article's date as its page shows it (`20 October 2026`), the same on the server and in the browser (UTC). */
export function formatArticleDate(iso: string | null, locale: string): string | null {
  if (!iso) return null;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(time);
}
