import { useSyncExternalStore } from "react";
import { Form, Link } from "react-router";

import { useSessionUser } from "../lib/auth/auth-client.ts";
import { authPath } from "../lib/auth/paths.ts";
import { t } from "../lib/i18n/messages.ts";
import type { LocaleConfig } from "../lib/locale-path.ts";

interface LocaleProps {
  /** The page's locale: the links lead to the auth pages in it, and speak it. */
  locale: string;
  localeConfig: LocaleConfig;
}

/**
 * The header's account links. Pages are cached and shared, so the server renders them from
 * whether the visitor carries a session cookie (`signedIn`, one cache variant each) and
 * never with a name: "Account" and a Sign out button, or "Sign in". That works without
 * JavaScript. On a page that hydrates (the auth pages: app/lib/hydration.ts) the browser then
 * reads the session and shows the name; content pages keep "Account".
 */
export function AccountLink({ signedIn, ...locale }: { signedIn: boolean } & LocaleProps) {
  const hydrated = useHydrated();
  return hydrated ? (
    <SessionAwareLinks signedIn={signedIn} {...locale} />
  ) : (
    <AccountLinks signedIn={signedIn} {...locale} />
  );
}

function SessionAwareLinks({ signedIn, ...locale }: { signedIn: boolean } & LocaleProps) {
  const { user, pending } = useSessionUser();
  // Until the browser has read the session, keep what the server rendered.
  if (pending) return <AccountLinks signedIn={signedIn} {...locale} />;
  return <AccountLinks signedIn={Boolean(user)} name={user?.name} {...locale} />;
}

function AccountLinks({ signedIn, name, locale, localeConfig }: { signedIn: boolean; name?: string } & LocaleProps) {
  if (!signedIn) return <Link to={authPath("signIn", locale, localeConfig)}>{t(locale, "chrome.signIn")}</Link>;
  return (
    <>
      <Link to={authPath("account", locale, localeConfig)} data-testid="signed-in-as">
        {name ?? t(locale, "chrome.account")}
      </Link>
      <Form method="post" action={authPath("signOut", locale, localeConfig)} className="sign-out">
        <button type="submit">{t(locale, "chrome.signOut")}</button>
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
