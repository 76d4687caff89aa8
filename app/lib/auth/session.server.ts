import type { CookieCachePayload } from "better-auth";
import { getCookieCache } from "better-auth/cookies";
import { createContext, redirect, type RouterContextProvider } from "react-router";

import { cookieNamesFor } from "../cookie-names.ts";
import { parseLocalePath } from "../locale-path.ts";
import { localeConfigOf } from "../locales.server.ts";
import { configContext, markDynamic } from "../request-context.server.ts";
import { getAuth } from "./auth.server.ts";
import { authPath } from "./paths.ts";
import type { StoredSession } from "./plugins/cms-session.server.ts";
import type { PublicSessionUser } from "./session-user.ts";

/**
 * Reading the session on the server, from the request's cookies. It goes through
 * better-auth's getSession (so the session plugin re-validates the CMS JWT) once per
 * request however often it is called, and marks the render dynamic: never cached.
 */
export interface ServerSession {
  user: PublicSessionUser;
  /** For per-user CMS calls on the server; never put it in loader data. */
  cmsJWT: string;
}

export interface SessionRead {
  session: ServerSession | null;
  /** Set-Cookie headers the response must carry (a cleared session expires its cookies). */
  setCookies: string[];
}

const sessionReadContext = createContext<Promise<SessionRead> | null>(null);

export function getServerSession(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionRead> {
  markDynamic(context);
  let read = context.get(sessionReadContext);
  if (!read) {
    read = readSession(request, context);
    (context as RouterContextProvider).set(sessionReadContext, read);
  }
  return read;
}

async function readSession(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionRead> {
  if (!request.headers.get("cookie")) return { session: null, setCookies: [] };
  const env = context.get(configContext);
  const { headers, response } = await getAuth(context).api.getSession({
    headers: request.headers,
    returnHeaders: true,
  });
  const setCookies = headers.getSetCookie();
  // The public session of the session plugin (plugins/cms-session.server.ts), or null.
  if (!response) return { session: null, setCookies };
  // The JWT stays in the encrypted cookie; getSession (above) has already verified the session.
  const stored = await getCookieCache<StoredSession & CookieCachePayload>(request, {
    secret: env.SESSION_AUTH_SECRET,
    strategy: "jwe",
    // Exactly the name better-auth writes (auth.server.ts): `__Host-better-auth` on https.
    cookiePrefix: cookieNamesFor(env.APP_PUBLIC_URL).auth,
    isSecure: false,
  });
  const cmsJWT = stored?.session.id === response.session.id ? stored.user.cmsJWT : undefined;
  if (!cmsJWT) return { session: null, setCookies };
  return { session: { user: response.user, cmsJWT }, setCookies };
}

/**
 * The signed-in user, or a redirect to the sign-in page (in the page's locale) that comes back
 * here afterwards.
 */
export async function requireSession(
  request: Request,
  context: Readonly<RouterContextProvider>,
  /** The page's address: the loader's or action's `url` (`request.url` may be its `.data`). */
  url: URL,
): Promise<SessionRead & { session: ServerSession }> {
  const read = await getServerSession(request, context);
  if (read.session) return read as SessionRead & { session: ServerSession };
  const redirectTo = `${url.pathname}${url.search}`;
  const headers = new Headers();
  for (const cookie of read.setCookies) headers.append("set-cookie", cookie);
  const config = localeConfigOf(context.get(configContext));
  const locale = parseLocalePath(url.pathname, config)?.locale ?? config.defaultLocale;
  const signIn = authPath("signIn", locale, config);
  throw redirect(`${signIn}?redirectTo=${encodeURIComponent(redirectTo)}`, { headers });
}
