import { expect } from "vitest";

import { formTokenOf } from "./auth-form.ts";

/**
 * A client of the site's sessions, for integration tests: JSON and form posts from the site's
 * own origin (or another one), the Cookie header a browser would send back, and who the site
 * thinks is signed in with a cookie.
 */
export function siteSession(baseUrl: () => string) {
  /** `headers` replace the defaults (Origin: the site's); an empty value leaves that header out. */
  function post(path: string, body: BodyInit, type: string, cookie: string, headers: Record<string, string>) {
    const all: Record<string, string> = { "content-type": type, origin: baseUrl(), cookie, ...headers };
    return fetch(`${baseUrl()}${path}`, {
      method: "POST",
      headers: Object.fromEntries(Object.entries(all).filter(([, value]) => value !== "")),
      body,
      redirect: "manual",
    });
  }

  const client = {
    postJson: (path: string, body: unknown, cookie = "", headers: Record<string, string> = {}) =>
      post(path, JSON.stringify(body), "application/json", cookie, headers),

    /** As a browser posts a form: with the bot-check token its page gives (tests/support/auth-form.ts). */
    postForm: async (
      path: string,
      fields: Record<string, string>,
      cookie = "",
      headers: Record<string, string> = {},
    ) => {
      const token = await formTokenOf(baseUrl(), path.split("?")[0] ?? path);
      return post(
        path,
        new URLSearchParams({ ...token, ...fields }),
        "application/x-www-form-urlencoded",
        cookie,
        headers,
      );
    },

    /**
     * The Cookie header a browser sends after these Set-Cookie headers: the last value of each
     * name wins (a page's loader may repeat a cookie its action then replaced), expired ones are left out.
     */
    cookieOf(response: Response): string {
      const jar = new Map<string, string>();
      for (const header of response.headers.getSetCookie()) {
        const pair = header.split(";")[0] ?? "";
        const name = pair.slice(0, pair.indexOf("="));
        if (pair.endsWith("=")) jar.delete(name);
        else jar.set(name, pair);
      }
      const cookie = [...jar.values()].join("; ");
      expect(cookie).toContain("session_token=");
      return cookie;
    },

    /** Signs in through the JSON endpoint; the Cookie header of the new session. */
    async signIn(email: string, password: string, extra: Record<string, unknown> = {}): Promise<string> {
      const response = await client.postJson("/api/auth/sign-in-cms", { email, password, ...extra });
      expect(response.status, await response.clone().text()).toBe(200);
      return client.cookieOf(response);
    },

    /** The session the site reads from this cookie (null: signed out). */
    async sessionOf(cookie: string): Promise<{ session: { id: string }; user: { email: string } } | null> {
      const response = await fetch(`${baseUrl()}/api/auth/get-session`, { headers: { cookie } });
      return (await response.json()) as { session: { id: string }; user: { email: string } } | null;
    },

    /** Who the site thinks is signed in with this cookie (null: signed out). */
    async emailOf(cookie: string): Promise<string | null> {
      return (await client.sessionOf(cookie))?.user.email ?? null;
    },
  };
  return client;
}
