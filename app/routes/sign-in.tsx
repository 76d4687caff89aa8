import { Form, Link, redirect } from "react-router";

import type { Route } from "./+types/sign-in";
import { AuthForm, Field } from "../components/auth-form.tsx";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { signInPageMessage } from "../lib/auth/error-codes.ts";
import { AuthError } from "../lib/auth/errors.server.ts";
import { formTokenFor, redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { renewFormTokenAfterPost } from "../lib/auth/form-token.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../lib/auth/paths.ts";
import { findOAuthProvider, oauthProviders } from "../lib/auth/providers.ts";
import { signInSchema } from "../lib/auth/schemas.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { safeRedirectPath } from "../lib/redirect-target.ts";
import { getServerSession } from "../lib/auth/session.server.ts";
import { secondStepOf } from "../lib/auth/two-factor-form.server.ts";
import { configContext } from "../lib/request-context.server.ts";

export const handle: AuthPageHandle = { authPage: "signIn" };

// Each answer to a post carries a new bot-check token (docs/decisions/0021).
export const shouldRevalidate = renewFormTokenAfterPost;

/** Where a sign-in in `locale` leads without a `redirectTo`: the account page in that locale. */
const accountIn = (locale: string, context: Route.LoaderArgs["context"]) =>
  authPath("account", locale, localeConfigOf(context.get(configContext)));

export async function loader({ request, params, context, url }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const config = localeConfigOf(context.get(configContext));
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"), accountIn(locale, context));
  const { session } = await getServerSession(request, context);
  if (session) throw redirect(redirectTo);
  return {
    locale,
    // The bot check's token, which the page's AuthForms carry (docs/decisions/0021).
    formToken: formTokenFor(context, AUTH_PAGES.signIn),
    links: {
      forgot: authPath("forgotPassword", locale, config),
      register: authPath("register", locale, config),
      confirmEmail: authPath("confirmEmail", locale, config),
    },
    redirectTo,
    providers: oauthProviders(context.get(configContext)).map(({ id, name }) => ({ id, name })),
    // Set by the OAuth callback when the sign-in was refused: the code's message (error-codes.ts).
    oauthError: signInPageMessage(url.searchParams.get("error"), locale),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = pageLocale(params, context);
  const config = context.get(configContext);
  const result = await runAuthForm(request, context, AUTH_PAGES.signIn, async (fields) => {
    const auth = getAuth(context);
    const redirectTo = safeRedirectPath(fields.redirectTo, accountIn(locale, context));
    if (fields.intent === "oauth") {
      const provider = findOAuthProvider(config, fields.provider);
      if (!provider) throw new AuthError("UNKNOWN_PROVIDER");
      const callbackURL = `${config.APP_PUBLIC_URL}${redirectTo}`;
      // A refused sign-in comes back to the sign-in page of the visitor's locale, with `?error=CODE`.
      const errorCallbackURL = `${config.APP_PUBLIC_URL}${authPath("signIn", locale, localeConfigOf(config))}`;
      // GitHub, Google and generic OpenID Connect providers all start here.
      const started = await auth.api.signInSocial({
        body: { provider: provider.id, callbackURL, errorCallbackURL },
        headers: request.headers,
        returnHeaders: true,
      });
      // The provider's authorization URL (no URL only when signing in with an ID token, not done here).
      const location = started.response.url;
      if (!location) throw new AuthError("OAUTH_FAILED");
      return { headers: started.headers, response: { location } };
    }
    try {
      const signedIn = await auth.api.signInCms({
        body: parseInput(signInSchema, fields),
        headers: request.headers,
        returnHeaders: true,
      });
      return { headers: signedIn.headers, response: { location: redirectTo } };
    } catch (error) {
      // Two-factor on: no session yet; the code is asked on its own page (routes/sign-in/two-factor.tsx).
      const secondStep = secondStepOf(error, context, locale, redirectTo);
      if (secondStep) return secondStep;
      throw error;
    }
  });
  if (!result.ok) return result.failure;
  return redirectWithCookies(result.response.location, result.headers);
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, links } = loaderData;
  return (
    <section className="auth-page">
      <h1>{t(locale, "signIn.title")}</h1>
      {loaderData.oauthError && (
        <p role="alert" className="form-error">
          {loaderData.oauthError}
        </p>
      )}
      {actionData?.code === "EMAIL_NOT_CONFIRMED" && (
        <p>
          <Link to={links.confirmEmail}>{t(locale, "signIn.newConfirmationMail")}</Link>
        </p>
      )}
      <AuthForm state={actionData} submitLabel={t(locale, "signIn.submit")} pendingLabel={t(locale, "signIn.pending")}>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field name="email" label={t(locale, "field.email")} type="email" autoComplete="email" state={actionData} />
        <Field
          name="password"
          label={t(locale, "field.password")}
          type="password"
          autoComplete="current-password"
          state={actionData}
        />
        <div className="field field-checkbox">
          <input
            id="rememberMe"
            name="rememberMe"
            type="checkbox"
            defaultChecked={actionData?.values?.rememberMe === "on"}
          />
          <label htmlFor="rememberMe">{t(locale, "signIn.rememberMe")}</label>
        </div>
      </AuthForm>
      <p>
        <Link to={links.forgot}>{t(locale, "signIn.forgotPassword")}</Link> · {t(locale, "signIn.noAccount")}{" "}
        <Link to={links.register}>{t(locale, "signIn.register")}</Link>
      </p>
      {loaderData.providers.length > 0 && (
        <div className="oauth-buttons">
          {loaderData.providers.map((provider) => (
            <Form method="post" key={provider.id} reloadDocument>
              <input type="hidden" name="intent" value="oauth" />
              <input type="hidden" name="provider" value={provider.id} />
              <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
              <button type="submit">{t(locale, "signIn.withProvider", { provider: provider.name })}</button>
            </Form>
          ))}
        </div>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "signIn.title")} | Acme` },
];
