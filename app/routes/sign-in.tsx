import { Form, Link, redirect } from "react-router";

import type { Route } from "./+types/sign-in";
import { AuthForm, Field } from "../components/auth-form.tsx";
import { getAuth, oauthProviders } from "../lib/auth/auth.server.ts";
import { AuthError } from "../lib/auth/errors.server.ts";
import { redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { safeRedirectPath } from "../lib/redirect-target.ts";
import { getServerSession } from "../lib/auth/session.server.ts";
import { getEnv } from "../lib/env.server.ts";

const OAUTH_ERRORS: Record<string, string> = {
  OAUTH_EMAIL_EXISTS:
    "An account with this email already exists, and the provider did not confirm the address. Sign in with your password instead.",
  OAUTH_ACCOUNT_UNCONFIRMED:
    "An account with this email already exists, and its address was never confirmed, so this sign-in was not joined to it. Sign in to that account as before (with your password, or reset it).",
  BLOCKED: "This account has been blocked.",
  CMS_UNAVAILABLE: "Accounts are unavailable right now. Please try again in a moment.",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const { session } = await getServerSession(request, context);
  if (session) throw redirect(redirectTo);
  const error = url.searchParams.get("error");
  return {
    redirectTo,
    providers: oauthProviders(),
    oauthError: error ? (OAUTH_ERRORS[error] ?? "Signing in with that provider did not work. Please try again.") : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const result = await runAuthForm(request, AUTH_PAGES.signIn, async (fields) => {
    const auth = getAuth();
    const redirectTo = safeRedirectPath(fields.redirectTo);
    if (fields.intent === "oauth") {
      const provider = oauthProviders().find((candidate) => candidate.id === fields.provider);
      if (!provider) {
        throw new AuthError(400, "UNKNOWN_PROVIDER", "This sign-in provider is not available here. Choose one of the buttons below.");
      }
      const callbackURL = `${getEnv().APP_PUBLIC_URL}${redirectTo}`;
      const errorCallbackURL = `${getEnv().APP_PUBLIC_URL}${AUTH_PAGES.signIn}`;
      // GitHub, Google and generic OpenID Connect providers all start here.
      const started = await auth.api.signInSocial({
        body: { provider: provider.id as "github", callbackURL, errorCallbackURL },
        headers: request.headers,
        returnHeaders: true,
      });
      return { headers: started.headers, response: { location: (started.response as { url: string }).url } };
    }
    const signedIn = await auth.api.signInCms({ body: fields, headers: request.headers, returnHeaders: true });
    return { headers: signedIn.headers, response: { location: redirectTo } };
  });
  if (!result.ok) return result.failure;
  return redirectWithCookies(result.response.location, result.headers);
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section>
      <h1>Sign in</h1>
      {loaderData.oauthError && (
        <p role="alert" className="form-error">
          {loaderData.oauthError}
        </p>
      )}
      <AuthForm state={actionData} submitLabel="Sign in" pendingLabel="Signing in…">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field name="email" label="Email" type="email" autoComplete="email" state={actionData} />
        <Field name="password" label="Password" type="password" autoComplete="current-password" state={actionData} />
      </AuthForm>
      <p>
        <Link to={AUTH_PAGES.forgotPassword}>Forgot your password?</Link> · No account yet?{" "}
        <Link to={AUTH_PAGES.register}>Register</Link>
      </p>
      {loaderData.providers.length > 0 && (
        <div className="oauth-buttons">
          {loaderData.providers.map((provider) => (
            <Form method="post" key={provider.id} reloadDocument>
              <input type="hidden" name="intent" value="oauth" />
              <input type="hidden" name="provider" value={provider.id} />
              <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
              <button type="submit">Sign in with {provider.name}</button>
            </Form>
          ))}
        </div>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Sign in | Acme" }];

