import { useEffect, useState } from "react";
import { Link } from "react-router";

import { useSessionUser } from "../lib/auth/auth-client.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";

/**
 * The header's account link. Pages are cached and shared, so the server always renders
 * the same "Sign in" link; in the browser, once hydrated, it shows who is signed in.
 */
export function AccountLink() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated ? <SessionAwareLink /> : <Link to={AUTH_PAGES.signIn}>Sign in</Link>;
}

function SessionAwareLink() {
  const user = useSessionUser();
  return user ? (
    <Link to={AUTH_PAGES.account} data-testid="signed-in-as">
      {user.name}
    </Link>
  ) : (
    <Link to={AUTH_PAGES.signIn}>Sign in</Link>
  );
}
