import { Link } from "react-router";

import type { Route } from "./+types/forgot-password";
import { AuthForm, Field } from "../components/auth-form.tsx";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { formTokenFor, runAuthForm } from "../lib/auth/form-action.server.ts";
import { renewFormTokenAfterPost } from "../lib/auth/form-token.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../lib/auth/paths.ts";
import { forgotPasswordSchema } from "../lib/auth/schemas.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { configContext } from "../lib/request-context.server.ts";

export const handle: AuthPageHandle = { authPage: "forgotPassword" };

// Each answer to a post carries a new bot-check token (docs/decisions/0021).
export const shouldRevalidate = renewFormTokenAfterPost;

export function loader({ params, context }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  return {
    locale,
    formToken: formTokenFor(context, AUTH_PAGES.forgotPassword),
    signIn: authPath("signIn", locale, localeConfigOf(context.get(configContext))),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  pageLocale(params, context);
  const result = await runAuthForm(request, context, AUTH_PAGES.forgotPassword, (fields) =>
    getAuth(context).api.forgotPasswordCms({
      body: parseInput(forgotPasswordSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!result.ok) return result.failure;
  // The same answer whether or not the address has an account.
  return { ok: true as const, sentTo: result.fields.email ?? "" };
}

export default function ForgotPassword({ loaderData: { locale, signIn }, actionData }: Route.ComponentProps) {
  if (actionData?.ok) {
    return (
      <section className="auth-page">
        <h1>{t(locale, "forgotPassword.sentTitle")}</h1>
        <p role="status" className="form-success">
          {t(locale, "forgotPassword.sent", { email: actionData.sentTo })}
        </p>
      </section>
    );
  }
  return (
    <section className="auth-page">
      <h1>{t(locale, "forgotPassword.title")}</h1>
      <p>{t(locale, "forgotPassword.intro")}</p>
      <AuthForm
        state={actionData}
        submitLabel={t(locale, "forgotPassword.submit")}
        pendingLabel={t(locale, "forgotPassword.pending")}
      >
        <Field name="email" label={t(locale, "field.email")} type="email" autoComplete="email" state={actionData} />
      </AuthForm>
      <p>
        <Link to={signIn}>{t(locale, "forgotPassword.backToSignIn")}</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "forgotPassword.title")} | Acme` },
];
