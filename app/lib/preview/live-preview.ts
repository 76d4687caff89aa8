import { useEffect, useSyncExternalStore } from "react";
import { useLocation, useRevalidator } from "react-router";

import { fetchDraftVersion, startDraftVersionPoll } from "./draft-version-poll.ts";

/**
 * Live preview (docs/live-preview.md): the CMS admin's Preview shows the page in an iframe and,
 * when the editor saves or publishes there, posts `{ type: "strapiUpdate" }` to it (Strapi 5's
 * content-manager, `PUBLIC_EVENTS.STRAPI_UPDATE`). The page answers by running its loaders again
 * (React Router's revalidator: one `.data` request, the draft read as on the first render) and
 * re-rendering in place: no page load, so the scroll position, focus and anything typed stay.
 *
 * Only a message from the admin's own origin counts: any window that holds a reference to this one
 * (an opener, a frame it opened) can post to it, and `origin` is the one thing about a message its
 * sender cannot choose (docs/security.md, finding 55).
 *
 * Strapi's free edition sends `strapiUpdate` on the Preview's Publish only (its Save is the paid side
 * editor's), so the page also polls the draft's version while it is visible and revalidates when
 * a save in the edit view moved it (./draft-version-poll.ts).
 *
 * The page never posts `previewReady`: Strapi answers that with `strapiScript`, code for the page to
 * run (its visual-editing highlights), and a page that runs code handed over by postMessage gives
 * whoever controls the admin's origin a script on the site's origin.
 */

/** The message Strapi's admin posts to its preview iframe after a save or a publish. */
export const STRAPI_UPDATE = "strapiUpdate";

/** Whether `event` is the admin's `strapiUpdate`: from `adminOrigin`, of that type. */
export function isStrapiUpdate(event: Pick<MessageEvent, "origin" | "data">, adminOrigin: string): boolean {
  if (event.origin !== adminOrigin) return false;
  const data: unknown = event.data;
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === STRAPI_UPDATE;
}

/**
 * Runs the page's loaders again on each `strapiUpdate` from the CMS admin at `adminOrigin`, and when
 * the draft's version moved (a save in the edit view). Answers
 * whether it listens: false in the server's HTML (and so without JavaScript), true in the render
 * that follows hydration, which React starts only after the hydration's effects, this listener
 * among them, have run.
 */
export function useLivePreview(adminOrigin: string): boolean {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (isStrapiUpdate(event, adminOrigin)) void revalidate();
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [adminOrigin, revalidate]);
  const { pathname } = useLocation();
  useEffect(
    () =>
      startDraftVersionPoll({
        fetchVersion: (signal) => fetchDraftVersion(pathname, signal),
        onChange: () => void revalidate(),
        document,
      }),
    [pathname, revalidate],
  );
  return useSyncExternalStore(noChanges, inBrowser, onServer);
}

const noChanges = () => () => {};
const inBrowser = () => true;
const onServer = () => false;
