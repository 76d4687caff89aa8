import { useMatches, type UIMatch } from "react-router";

import type { AuthPage } from "./auth/paths.ts";

/**
 * Which pages hydrate: the one place that decides it (docs/decisions/0035-no-javascript-on-content-pages.md).
 *
 * Every page is rendered on the server and works with JavaScript off. A page that hydrates also
 * ships React Router's client (the entry module, a modulepreload per route module, the loader data
 * as `window.__reactRouterContext`): worth it where the client does something for the visitor.
 * That is the auth pages, listed here one by one (a new page of app/lib/auth/paths.ts does not
 * compile until it is given a line): their forms are submitted by React Router, so a wrong password
 * shows its message without a reload, the button shows the pending state and focus goes to the
 * first field in error; the header reads the session and shows the account's name. They are never
 * cached (server/app.ts isCacheablePath), so their hydration data costs no shared cache.
 *
 * A page in preview (a route whose loader data carries `preview`: the draft, never cached) hydrates
 * too: the editor's preview is where the client listens to the CMS (live preview), and its
 * hydration data reaches no shared cache.
 *
 * Every other route is a content page: CMS pages, the blog, its articles and categories, their
 * 404 and error pages. They are sent as HTML and CSS only, with the speculation rules
 * (app/lib/speculation-rules.ts) instead of a client router.
 */
const AUTH_PAGES_HYDRATE = {
  signIn: true,
  register: true,
  forgotPassword: true,
  resetPassword: true,
  account: true,
  signOut: true,
  confirmEmailChange: true,
  confirmEmail: true,
  twoFactor: true,
  accountTwoFactor: true,
} as const satisfies Record<AuthPage, boolean>;

/**
 * Whether a render of these matched routes (root first) hydrates: a page in preview does; otherwise
 * the deepest auth page decides.
 */
export function routesHydrate(matches: readonly Pick<UIMatch, "handle" | "loaderData">[]): boolean {
  if (matches.some((match) => isPreviewData(match.loaderData))) return true;
  for (const match of [...matches].reverse()) {
    const page = (match.handle as { authPage?: AuthPage } | undefined)?.authPage;
    if (page && Object.hasOwn(AUTH_PAGES_HYDRATE, page)) return AUTH_PAGES_HYDRATE[page];
  }
  return false;
}

function isPreviewData(data: unknown): boolean {
  return typeof data === "object" && data !== null && Boolean((data as { preview?: unknown }).preview);
}

/**
 * For the root's layout: whether to send the client (`<Scripts>`, `<ScrollRestoration>`) or the
 * speculation rules and the inlined stylesheet. In the browser the answer is always yes: code runs
 * there only on a page that hydrated, and a client-side navigation from it (to a content page, say)
 * must keep the scripts and the scroll restoration it started with.
 */
export function usePageHydrates(): boolean {
  const matches = useMatches();
  return import.meta.env.SSR ? routesHydrate(matches) : true;
}
