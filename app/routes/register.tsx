import { Link, redirect } from "react-router";

import type { Route } from "./+types/register";
import { AuthForm, Field } from "../components/auth-form.tsx";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { formTokenFor, runAuthForm } from "../lib/auth/form-action.server.ts";
import { renewFormTokenAfterPost } from "../lib/auth/form-token.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../lib/auth/paths.ts";
import { registerSchema } from "../lib/auth/schemas.ts";
import { getServerSession } from "../lib/auth/session.server.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { configContext } from "../lib/request-context.server.ts";

export const handle: AuthPageHandle = { authPage: "register" };

// Each answer to a post carries a new bot-check token (docs/decisions/0021).
export const shouldRevalidate = renewFormTokenAfterPost;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const config = localeConfigOf(context.get(configContext));
  const { session } = await getServerSession(request, context);
  if (session) throw redirect(authPath("account", locale, config));
  return {
    locale,
    formToken: formTokenFor(context, AUTH_PAGES.register),
    links: { signIn: authPath("signIn", locale, config), forgot: authPath("forgotPassword", locale, config) },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  pageLocale(params, context);
  const result = await runAuthForm(request, context, AUTH_PAGES.register, (fields) =>
    getAuth(context).api.registerCms({
      body: parseInput(registerSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!result.ok) return result.failure;
  // The same answer whether the address was new or already registered, and no session:
  // signing in only the new ones would tell them apart. Its words are the page's ("register.done").
  // With email confirmation on (the CMS's setting), the answer says to check the inbox.
  return { ok: true as const, checkInbox: result.response.emailConfirmation };
}

export default function Register({ loaderData: { locale, links }, actionData }: Route.ComponentProps) {
  if (actionData?.ok) {
    return (
      <section className="auth-page">
        <h1>{t(locale, "register.doneTitle")}</h1>
        <p role="status" className="form-success">
          {t(locale, actionData.checkInbox ? "register.checkInbox" : "register.done")}
        </p>
        <p>
          <Link to={links.signIn}>{t(locale, "signIn.title")}</Link> ·{" "}
          <Link to={links.forgot}>{t(locale, "signIn.forgotPassword")}</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="auth-page">
      <h1>{t(locale, "register.title")}</h1>
      <AuthForm
        state={actionData}
        submitLabel={t(locale, "register.submit")}
        pendingLabel={t(locale, "register.pending")}
      >
        <Field name="email" label={t(locale, "field.email")} type="email" autoComplete="email" state={actionData} />
        <Field
          name="password"
          label={t(locale, "field.password")}
          type="password"
          autoComplete="new-password"
          hint={t(locale, "field.passwordHint")}
          state={actionData}
        />
        <Field
          name="passwordConfirmation"
          label={t(locale, "field.repeatPassword")}
          type="password"
          autoComplete="new-password"
          state={actionData}
        />
      </AuthForm>
      <p>
        {t(locale, "register.alreadyRegistered")} <Link to={links.signIn}>{t(locale, "signIn.title")}</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "register.title")} | Acme` },
];
