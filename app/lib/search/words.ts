/** The search page's words, per locale (English for any other). */
export interface SearchWords {
  title: string;
  label: string;
  submit: string;
  prompt: string;
  noWords: string;
  tooLong: (max: number) => string;
  badPage: (max: number) => string;
  rateLimited: (seconds: number) => string;
  unavailable: string;
  noResults: (q: string) => string;
  pastEnd: string;
  firstPage: string;
  found: (total: number, q: string) => string;
  pageOf: (page: number, count: number) => string;
  previous: string;
  next: string;
  article: string;
  page: string;
}

const WORDS: Record<string, SearchWords> = {
  en: {
    title: "Search",
    label: "Search the site",
    submit: "Search",
    prompt: "Type one or more words to search the pages and articles of this site.",
    noWords: "Your search has no words to look for. Type letters or numbers.",
    tooLong: (max) => `Your search is too long: type at most ${max} characters.`,
    badPage: (max) => `There is no such page of results: pages go from 1 to at most ${max}.`,
    rateLimited: (seconds) =>
      `You have searched very often in a short time. Please wait ${seconds} ${seconds === 1 ? "second" : "seconds"} and search again.`,
    unavailable: "The search is not available at the moment. Please try again in a few minutes.",
    noResults: (q) => `Nothing matches “${q}”. Try other or fewer words.`,
    pastEnd: "There are fewer results than this page.",
    firstPage: "Back to the first page of results",
    found: (total, q) => `${total} ${total === 1 ? "result" : "results"} for “${q}”`,
    pageOf: (page, count) => `Page ${page} of ${count}`,
    previous: "Previous results",
    next: "More results",
    article: "Article",
    page: "Page",
  },
  de: {
    title: "Suche",
    label: "Website durchsuchen",
    submit: "Suchen",
    prompt: "Geben Sie ein oder mehrere Wörter ein, um die Seiten und Artikel dieser Website zu durchsuchen.",
    noWords: "Ihre Suche enthält keine Wörter. Geben Sie Buchstaben oder Zahlen ein.",
    tooLong: (max) => `Ihre Suche ist zu lang: höchstens ${max} Zeichen.`,
    badPage: (max) => `Diese Ergebnisseite gibt es nicht: Seiten gehen von 1 bis höchstens ${max}.`,
    rateLimited: (seconds) =>
      `Sie haben in kurzer Zeit sehr oft gesucht. Bitte warten Sie ${seconds} ${seconds === 1 ? "Sekunde" : "Sekunden"} und suchen Sie dann erneut.`,
    unavailable: "Die Suche ist im Moment nicht verfügbar. Bitte versuchen Sie es in einigen Minuten noch einmal.",
    noResults: (q) => `Keine Treffer für „${q}“. Versuchen Sie andere oder weniger Wörter.`,
    pastEnd: "So viele Ergebnisse gibt es nicht.",
    firstPage: "Zurück zur ersten Ergebnisseite",
    found: (total, q) => `${total} ${total === 1 ? "Ergebnis" : "Ergebnisse"} für „${q}“`,
    pageOf: (page, count) => `Seite ${page} von ${count}`,
    previous: "Vorherige Ergebnisse",
    next: "Weitere Ergebnisse",
    article: "Artikel",
    page: "Seite",
  },
};

export function searchWords(locale: string): SearchWords {
  return WORDS[locale] ?? WORDS.en!;
}
