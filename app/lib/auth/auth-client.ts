import { useEffect } from "react";
import { useLocation } from "react-router";
import { createAuthClient } from "better-auth/react";

import type { PublicSessionUser } from "./session-user.ts";

/**
 * Reading the session in the browser: `useSession()` (reactive) and `getSession()`
 * (imperative), both from GET /api/auth/get-session, which answers the public user only.
 */
export const authClient = createAuthClient({ basePath: "/api/auth" });

export type BrowserSession = { user: PublicSessionUser; session: { id: string; expiresAt: string } } | null;

/**
 * The signed-in user, reactively (null when signed out), and whether it is still being read.
 * Sign-in and sign-out happen in form actions on the server, so the session is read again
 * whenever the page changes.
 */
export function useSessionUser(): { user: PublicSessionUser | null; pending: boolean } {
  const { data, isPending, refetch } = authClient.useSession();
  const { pathname } = useLocation();
  useEffect(() => {
    void refetch();
  }, [pathname, refetch]);
  return { user: (data as BrowserSession)?.user ?? null, pending: isPending };
}

/** The signed-in user, once. */
export async function getSessionUser(): Promise<PublicSessionUser | null> {
  const { data } = await authClient.getSession();
  return (data as BrowserSession)?.user ?? null;
}
