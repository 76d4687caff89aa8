import { useSyncExternalStore } from "react";
import { Form, Link } from "react-router";

import { useSessionUser } from "../lib/auth/auth-client.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";

/**
 * The header's account links. Pages are cached and shared, so the server renders them from
 * whether the visitor carries a session cookie (`signedIn`, one cache variant each) and
 * never with a name: "Account" and a Sign out button, or "Sign in". That works without
 * JavaScript. In the browser, once hydrated, the session is read and the name is shown.
 */
export function AccountLink({ signedIn }: { signedIn: boolean }) {
  const hydrated = useHydrated();
  return hydrated ? <SessionAwareLinks signedIn={signedIn} /> : <AccountLinks signedIn={signedIn} />;
}

function SessionAwareLinks({ signedIn }: { signedIn: boolean }) {
  const { user, pending } = useSessionUser();
  // Until the browser has read the session, keep what the server rendered.
  if (pending) return <AccountLinks signedIn={signedIn} />;
  return <AccountLinks signedIn={Boolean(user)} name={user?.name} />;
}

function AccountLinks({ signedIn, name }: { signedIn: boolean; name?: string }) {
  if (!signedIn) return <Link to={AUTH_PAGES.signIn}>Sign in</Link>;
  return (
    <>
      <Link to={AUTH_PAGES.account} data-testid="signed-in-as">
        {name ?? "Account"}
      </Link>
      <Form method="post" action={AUTH_PAGES.signOut} className="sign-out">
        <button type="submit">Sign out</button>
      </Form>
    </>
  );
}

const noSubscription = () => () => {};
/** False in the server's render and during hydration, true afterwards: no extra render pass. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
