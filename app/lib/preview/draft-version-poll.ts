/**
 * Follows saves made in the CMS's edit view while a page is in preview (docs/live-preview.md, "A
 * save in the edit view"): Strapi's free edition tells the preview iframe nothing on such a save
 * (its `strapiUpdate` follows the Preview's Publish only), so the page asks the site for the
 * draft's version (GET /api/preview/version, app/routes/api.preview.version.ts) and, when it moved,
 * runs its loaders again (the same revalidation as a `strapiUpdate`: in place, scroll kept).
 *
 * Bounded: one timer or one request at a time; none while the tab is hidden (asked again at once
 * when it shows); a failure doubles the wait up to MAX_BACKOFF_MS; an answer that the address is
 * not in preview (the cookie expired or was left) stops it; unmounting stops it and aborts a
 * request in flight.
 */

/** How often a visible page in preview asks (ms). */
export const POLL_INTERVAL_MS = 2_000;
/** The longest wait after failures in a row (ms). */
export const MAX_BACKOFF_MS = 60_000;

/** One answer of the version endpoint: a version (null: none known), a failure, or "stop asking". */
export type VersionAnswer = { version: string | null } | "failed" | "gone";

export interface DraftVersionPoll {
  fetchVersion: (signal: AbortSignal) => Promise<VersionAnswer>;
  /** Called when the version differs from the one seen before (never on the first answer). */
  onChange: () => void;
  /** The page's document: its visibilityState and visibilitychange. */
  document: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener">;
}

/** Starts asking at once; answers the function that stops it. */
export function startDraftVersionPoll({ fetchVersion, onChange, document }: DraftVersionPoll): () => void {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  let stopped = false;
  let seen: string | null | undefined;
  let wait = POLL_INTERVAL_MS;

  const visible = () => document.visibilityState === "visible";
  const ask = async () => {
    timer = undefined;
    inFlight = true;
    const answer = await fetchVersion(controller.signal).catch((): VersionAnswer => "failed");
    inFlight = false;
    if (stopped) return;
    if (answer === "gone") return stop();
    if (answer === "failed") {
      wait = Math.min(wait * 2, MAX_BACKOFF_MS);
    } else {
      if (seen !== undefined && answer.version !== seen) onChange();
      seen = answer.version;
      wait = POLL_INTERVAL_MS;
    }
    if (visible()) timer = setTimeout(() => void ask(), wait);
  };
  const onVisibilityChange = () => {
    if (!visible()) {
      clearTimeout(timer);
      timer = undefined;
    } else if (timer === undefined && !inFlight && !stopped) {
      void ask();
    }
  };
  function stop() {
    stopped = true;
    clearTimeout(timer);
    timer = undefined;
    controller.abort();
    document.removeEventListener("visibilitychange", onVisibilityChange);
  }

  document.addEventListener("visibilitychange", onVisibilityChange);
  if (visible()) void ask();
  return stop;
}

/** The version endpoint's answer for the page at `pathname`, as the poll reads it. */
export async function fetchDraftVersion(pathname: string, signal: AbortSignal): Promise<VersionAnswer> {
  const response = await fetch(`/api/preview/version?${new URLSearchParams({ path: pathname })}`, {
    signal,
    cache: "no-store",
    credentials: "same-origin",
  });
  // 403/404/400: this address is not (or no longer) in preview here; asking again changes nothing.
  if (response.status >= 400 && response.status < 500) return "gone";
  if (!response.ok) return "failed";
  const body = (await response.json()) as { version?: unknown };
  return typeof body.version === "string" || body.version === null ? { version: body.version } : "failed";
}
