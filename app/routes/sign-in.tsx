import { Form, Link, redirect } from "react-router";

import type { Route } from "./+types/sign-in";
import { AuthForm, Field } from "../components/auth-form.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { signInPageMessage } from "../lib/auth/error-codes.ts";
import { AuthError } from "../lib/auth/errors.server.ts";
import { redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { findOAuthProvider, oauthProviders } from "../lib/auth/providers.ts";
import { signInSchema } from "../lib/auth/schemas.ts";
import { safeRedirectPath } from "../lib/redirect-target.ts";
import { getServerSession } from "../lib/auth/session.server.ts";
import { configContext } from "../lib/request-context.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const { session } = await getServerSession(request, context);
  if (session) throw redirect(redirectTo);
  return {
    redirectTo,
    providers: oauthProviders(context.get(configContext)).map(({ id, name }) => ({ id, name })),
    // Set by the OAuth callback when the sign-in was refused: the code's message (error-codes.ts).
    oauthError: signInPageMessage(url.searchParams.get("error")),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const config = context.get(configContext);
  const result = await runAuthForm(request, context, AUTH_PAGES.signIn, async (fields) => {
    const auth = getAuth(context);
    const redirectTo = safeRedirectPath(fields.redirectTo);
    if (fields.intent === "oauth") {
      const provider = findOAuthProvider(config, fields.provider);
      if (!provider) throw new AuthError("UNKNOWN_PROVIDER");
      const callbackURL = `${config.APP_PUBLIC_URL}${redirectTo}`;
      const errorCallbackURL = `${config.APP_PUBLIC_URL}${AUTH_PAGES.signIn}`;
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
    const signedIn = await auth.api.signInCms({
      body: parseInput(signInSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    });
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
