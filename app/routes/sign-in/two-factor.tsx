import { Link, redirect } from "react-router";

import type { Route } from "./+types/two-factor";
import { AuthForm, Field } from "../../components/auth-form.tsx";
import type { AuthPageHandle } from "../../components/locale-switcher.tsx";
import { getAuth } from "../../lib/auth/auth.server.ts";
import { authErrorMessage } from "../../lib/auth/error-codes.ts";
import { redirectWithCookies, runAuthForm } from "../../lib/auth/form-action.server.ts";
import { parseInput } from "../../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../../lib/auth/paths.ts";
import { getServerSession } from "../../lib/auth/session.server.ts";
import { openPendingSignIn } from "../../lib/auth/two-factor-cookies.server.ts";
import { expirePendingCookie, pendingCookieOf } from "../../lib/auth/two-factor-form.server.ts";
import { twoFactorCodeSchema } from "../../lib/auth/two-factor-schemas.ts";
import { t } from "../../lib/i18n/messages.ts";
import { pageLocale } from "../../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../../lib/locales.server.ts";
import { safeRedirectPath } from "../../lib/redirect-target.ts";
import { configContext } from "../../lib/request-context.server.ts";

/**
 * The sign-in's second step (two-factor on): the password was right, and the pending sign-in
 * cookie (sealed, 5 minutes, plugins/two-factor.server.ts) waits for a code from the
 * authenticator app or a recovery code. A right one starts the session and goes on to
 * `redirectTo`; without a live pending sign-in the page says so and links back to sign-in.
 */

export const handle: AuthPageHandle = { authPage: "twoFactor" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const config = context.get(configContext);
  const locales = localeConfigOf(config);
  const redirectTo = safeRedirectPath(
    new URL(request.url).searchParams.get("redirectTo"),
    authPath("account", locale, locales),
  );
  const { session } = await getServerSession(request, context);
  if (session) throw redirect(redirectTo);
  const pending = await openPendingSignIn(config.SESSION_AUTH_SECRET, pendingCookieOf(request, context));
  return {
    locale,
    redirectTo,
    waiting: pending !== null,
    expired: authErrorMessage("TWO_FACTOR_EXPIRED", {}, locale),
    signIn: `${authPath("signIn", locale, locales)}?redirectTo=${encodeURIComponent(redirectTo)}`,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = pageLocale(params, context);
  const account = authPath("account", locale, localeConfigOf(context.get(configContext)));
  const result = await runAuthForm(request, context, AUTH_PAGES.twoFactor, async (fields) => {
    const verified = await getAuth(context).api.twoFactorCms({
      body: parseInput(twoFactorCodeSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    });
    return { headers: verified.headers, response: { location: safeRedirectPath(fields.redirectTo, account) } };
  });
  if (!result.ok) return result.failure;
  // Signed in: the pending sign-in is over (its id is also recorded as used by the endpoint).
  result.headers.append("set-cookie", expirePendingCookie(context));
  return redirectWithCookies(result.response.location, result.headers);
}

export default function TwoFactorSignIn({ loaderData, actionData }: Route.ComponentProps) {
  const { locale } = loaderData;
  const expired = !loaderData.waiting || actionData?.code === "TWO_FACTOR_EXPIRED";
  return (
    <section className="auth-page">
      <h1>{t(locale, "twoFactorSignIn.title")}</h1>
      {expired ? (
        <p role="alert" className="form-error">
          {loaderData.expired} <Link to={loaderData.signIn}>{t(locale, "twoFactorSignIn.signInAgain")}</Link>
        </p>
      ) : (
        <>
          <p>{t(locale, "twoFactorSignIn.intro")}</p>
          <AuthForm
            state={actionData}
            submitLabel={t(locale, "twoFactorSignIn.submit")}
            pendingLabel={t(locale, "twoFactorSignIn.pending")}
          >
            <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
            <Field
              name="code"
              label={t(locale, "twoFactor.codeLabel")}
              autoComplete="one-time-code"
              state={actionData}
            />
          </AuthForm>
        </>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "twoFactorSignIn.title")} | Acme` },
];
