import { data } from "react-router";

import type { Route } from "./+types/search";
import { CmsError } from "../lib/cms/errors.server.ts";
import { contentNotFound, contentRouteContext, pathLocale } from "../lib/content-route.server.ts";
import { localizedPath } from "../lib/locale-path.ts";
import { NO_STORE_ANYWHERE } from "../lib/no-store.ts";
import { markedRuns } from "../lib/search/marked-text.ts";
import { parseSearchPage, SEARCH_LIMITS, SEARCH_PATH, searchPagePath, searchPath } from "../lib/search/paths.ts";
import { spendSearch } from "../lib/search/rate-limit.server.ts";
import { searchCms } from "../lib/search/search.server.ts";
import { searchWords } from "../lib/search/words.ts";
import { SITE_NAME } from "../lib/seo/head.ts";

/**
 * The site's search (`/search?q=`, `/de/search?q=`; docs/search.md): the published pages and
 * articles of the page's locale that hold every word, ranked by the CMS's index, ten a page, the
 * matched words marked. An answer depends on what a visitor typed: stored by nobody (no-store, and
 * server/app.ts never puts the path in the page cache). An empty query, one without words, one
 * too long or a page that is no page get a page that says so (400 for the last two); so do a
 * client past its search budget (429 with Retry-After: rate-limit.server.ts) and a CMS whose
 * search fails or does not answer in time (503).
 */
type Outcome =
  | { kind: "prompt" }
  | { kind: "no-words" }
  | { kind: "too-long" }
  | { kind: "bad-page" }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "unavailable" }
  | {
      kind: "results";
      total: number;
      page: number;
      pageCount: number;
      results: { href: string; type: string; title: string; snippet: string }[];
      previous: string | null;
      next: string | null;
      first: string;
    };

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { cms, log, config } = contentRouteContext(context);
  const locale = pathLocale(url.pathname, SEARCH_PATH, config);
  if (!locale) throw await contentNotFound(context, config.defaultLocale);
  const base = searchPath(locale, config);
  const q = (url.searchParams.get("q") ?? "").trim();
  const page = parseSearchPage(url.searchParams.get("page"));
  const answer = (outcome: Outcome, status = 200, headers?: Record<string, string>) =>
    data({ locale, q, action: base, outcome }, { status, headers });

  if (q.length > SEARCH_LIMITS.maxQueryLength) return answer({ kind: "too-long" }, 400);
  if (page === null) return answer({ kind: "bad-page" }, 400);
  if (q === "") return answer({ kind: "prompt" });

  // Only what would reach the CMS is counted: the refusals above cost it nothing.
  const refused = await spendSearch(context, request);
  if (refused) {
    return answer({ kind: "rate-limited", ...refused }, 429, { "retry-after": String(refused.retryAfterSeconds) });
  }

  let found;
  try {
    found = await searchCms(cms, { q, locale, page });
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    // Whatever the CMS did (an error status, nonsense, no answer in time), for the visitor the
    // search is out of order for now: the page says so, the operator reads why.
    log.error(`[search] ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}`);
    return answer({ kind: "unavailable" }, 503);
  }
  if (found.meta.terms.length === 0) return answer({ kind: "no-words" });
  const { total, pageCount } = found.meta.pagination;
  return answer({
    kind: "results",
    total,
    page,
    pageCount,
    results: found.data.map((result) => ({
      href: localizedPath(result.path, locale, config),
      type: result.type,
      title: result.title,
      snippet: result.snippet,
    })),
    previous: page > 1 ? searchPagePath(base, q, Math.min(page - 1, Math.max(pageCount, 1))) : null,
    next: page < pageCount ? searchPagePath(base, q, page + 1) : null,
    first: searchPagePath(base, q, 1),
  });
}

// Every answer, a refusal's and an error's too (each is about one visitor's query): stored by
// nobody. A 429 keeps its Retry-After.
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = loaderHeaders.get("retry-after");
  return retryAfter ? { ...NO_STORE_ANYWHERE, "retry-after": retryAfter } : NO_STORE_ANYWHERE;
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: SITE_NAME }];
  const words = searchWords(loaderData.locale);
  const title = loaderData.q ? `${words.title}: ${loaderData.q}` : words.title;
  // A page of results is no page for a search engine's index.
  return [{ title: `${title} | ${SITE_NAME}` }, { name: "robots", content: "noindex" }];
}

/** Text with the CMS's marks as <mark> elements (marked-text.ts). */
function Marked({ value }: { value: string }) {
  return <>{markedRuns(value).map((run, i) => (run.marked ? <mark key={i}>{run.text}</mark> : run.text))}</>;
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { locale, q, action, outcome } = loaderData;
  const words = searchWords(locale);
  const message = {
    prompt: words.prompt,
    "no-words": words.noWords,
    "too-long": words.tooLong(SEARCH_LIMITS.maxQueryLength),
    "bad-page": words.badPage(SEARCH_LIMITS.maxPage),
    "rate-limited": outcome.kind === "rate-limited" ? words.rateLimited(outcome.retryAfterSeconds) : "",
    unavailable: words.unavailable,
  };
  return (
    <section className="search-page">
      <h1>{words.title}</h1>
      <form role="search" method="get" action={action} className="search-page-form">
        <label htmlFor="search-page-q">{words.label}</label>
        <div className="search-page-fields">
          <input
            id="search-page-q"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={SEARCH_LIMITS.maxQueryLength}
            autoComplete="off"
          />
          <button type="submit">{words.submit}</button>
        </div>
      </form>
      {outcome.kind !== "results" ? (
        <p className="search-message" role={outcome.kind === "prompt" ? undefined : "status"}>
          {message[outcome.kind]}
        </p>
      ) : (
        <SearchResults outcome={outcome} q={q} locale={locale} />
      )}
    </section>
  );
}

function SearchResults({
  outcome,
  q,
  locale,
}: {
  outcome: Extract<Outcome, { kind: "results" }>;
  q: string;
  locale: string;
}) {
  const words = searchWords(locale);
  if (outcome.total === 0)
    return (
      <p className="search-message" role="status">
        {words.noResults(q)}
      </p>
    );
  if (outcome.results.length === 0) {
    return (
      <p className="search-message" role="status">
        {words.pastEnd} <a href={outcome.first}>{words.firstPage}</a>
      </p>
    );
  }
  return (
    <>
      <p className="search-summary" role="status">
        {words.found(outcome.total, q)}
        {outcome.pageCount > 1 && ` · ${words.pageOf(outcome.page, outcome.pageCount)}`}
      </p>
      <ol className="search-results">
        {outcome.results.map((result) => (
          <li key={result.href}>
            <p className="search-result-type">{result.type === "article" ? words.article : words.page}</p>
            <h2>
              <a href={result.href}>
                <Marked value={result.title} />
              </a>
            </h2>
            {result.snippet && (
              <p>
                <Marked value={result.snippet} />
              </p>
            )}
          </li>
        ))}
      </ol>
      {(outcome.previous || outcome.next) && (
        <nav className="blog-pager" aria-label={words.pageOf(outcome.page, outcome.pageCount)}>
          {outcome.previous ? (
            <a href={outcome.previous} rel="prev">
              {words.previous}
            </a>
          ) : (
            <span />
          )}
          <span>{words.pageOf(outcome.page, outcome.pageCount)}</span>
          {outcome.next ? (
            <a href={outcome.next} rel="next">
              {words.next}
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  );
}
