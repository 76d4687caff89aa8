import { Link } from "react-router";

import type { Route } from "./+types/confirm-email-change";
import { AuthForm } from "../components/auth-form.tsx";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { confirmEmailChangeSchema } from "../lib/auth/email-change-schemas.ts";
import { redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../lib/auth/paths.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { configContext } from "../lib/request-context.server.ts";

/**
 * Where the change-of-email mail's link lands: `/confirm-email-change?token=<token>` (under the
 * locale's prefix for another locale). Opening the link changes nothing (mail scanners and link
 * previews open links too): the page shows a button, whose POST goes through runAuthForm (origin
 * guard, rate limit) and asks the CMS to confirm (docs/decisions/0020-account-lifecycle.md,
 * "Change of email"). A browser signed in as that user gets a new session and lands on its
 * account page (post/redirect/get, as after a password change); any other browser sees the
 * outcome here. Auth pages are never cached.
 */

export const handle: AuthPageHandle = { authPage: "confirmEmailChange" };

export function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const config = localeConfigOf(context.get(configContext));
  const token = (new URL(request.url).searchParams.get("token") ?? "").slice(0, 512);
  return {
    locale,
    token,
    account: authPath("account", locale, config),
    signIn: authPath("signIn", locale, config),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = pageLocale(params, context);
  const result = await runAuthForm(request, context, AUTH_PAGES.confirmEmailChange, (fields) =>
    getAuth(context).api.confirmEmailChangeCms({
      body: parseInput(confirmEmailChangeSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!result.ok) return result.failure;
  // This browser's session was the user's: it was replaced by a new one, whose cookies this
  // redirect carries (answering in place, the page's loaders would repeat the old session's).
  if (result.response.signedIn) {
    const account = authPath("account", locale, localeConfigOf(context.get(configContext)));
    return redirectWithCookies(`${account}?changed=email`, result.headers);
  }
  return { ok: true as const, email: result.response.email };
}

export default function ConfirmEmailChange({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, token, account, signIn } = loaderData;
  if (actionData?.ok) {
    return (
      <section className="auth-page">
        <h1>{t(locale, "confirmEmailChange.doneTitle")}</h1>
        <p role="status" className="form-success">
          {t(locale, "confirmEmailChange.done", { email: actionData.email })}
        </p>
        <p>
          <Link to={signIn}>{t(locale, "confirmEmailChange.signIn")}</Link>
        </p>
      </section>
    );
  }
  if (actionData || !token) {
    return (
      <section className="auth-page">
        <h1>{t(locale, "confirmEmailChange.failedTitle")}</h1>
        <p role="alert" className="form-error">
          {actionData?.message ?? t(locale, "confirmEmailChange.incomplete")}
        </p>
        <p>
          <Link to={account}>{t(locale, "confirmEmailChange.toAccount")}</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="auth-page">
      <h1>{t(locale, "confirmEmailChange.title")}</h1>
      <p>{t(locale, "confirmEmailChange.intro")}</p>
      <AuthForm
        state={actionData}
        submitLabel={t(locale, "confirmEmailChange.submit")}
        pendingLabel={t(locale, "confirmEmailChange.pending")}
      >
        <input type="hidden" name="token" value={token} />
      </AuthForm>
    </section>
  );
}

// The token in the URL does not leak to other sites: Referrer-Policy strict-origin-when-cross-origin
// (server/security-headers.ts) sends them the origin only.
export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "confirmEmailChange.title")} | Acme` },
];
