import { data } from "react-router";

import type { Route } from "./+types/account";
import { AuthForm, Field } from "../components/auth-form.tsx";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { updatePasswordSchema } from "../lib/auth/schemas.ts";
import { requireSession } from "../lib/auth/session.server.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";

export const handle: AuthPageHandle = { authPage: "account" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const { session, setCookies } = await requireSession(request, context);
  // The public user only: the CMS JWT never goes into loader data.
  return data(
    { user: session.user, locale },
    { headers: setCookies.map((cookie) => ["set-cookie", cookie] as [string, string]) },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = pageLocale(params, context);
  await requireSession(request, context);
  const result = await runAuthForm(request, context, AUTH_PAGES.account, (fields) =>
    getAuth(context).api.updatePasswordCms({
      body: parseInput(updatePasswordSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!result.ok) return result.failure;
  return data(
    { ok: true as const, message: t(locale, "account.passwordChanged") },
    { headers: result.headers.getSetCookie().map((cookie) => ["set-cookie", cookie] as [string, string]) },
  );
}

export default function Account({ loaderData: { user, locale }, actionData }: Route.ComponentProps) {
  const failed = actionData && !actionData.ok ? actionData : undefined;
  return (
    <section>
      <h1>{t(locale, "account.title")}</h1>
      <dl>
        <dt>{t(locale, "account.name")}</dt>
        <dd data-testid="account-name">{user.name}</dd>
        <dt>{t(locale, "account.email")}</dt>
        <dd data-testid="account-email">{user.email}</dd>
        <dt>{t(locale, "account.signedInWith")}</dt>
        <dd>{user.provider === "credentials" ? t(locale, "account.emailAndPassword") : user.provider}</dd>
      </dl>

      <h2>{t(locale, "account.changePassword")}</h2>
      {actionData?.ok && (
        <p role="status" className="form-success">
          {actionData.message}
        </p>
      )}
      <AuthForm state={failed} submitLabel={t(locale, "account.submit")} pendingLabel={t(locale, "account.pending")}>
        <Field
          name="currentPassword"
          label={t(locale, "field.currentPassword")}
          type="password"
          autoComplete="current-password"
          state={failed}
        />
        <Field
          name="password"
          label={t(locale, "field.newPassword")}
          type="password"
          autoComplete="new-password"
          state={failed}
        />
        <Field
          name="passwordConfirmation"
          label={t(locale, "field.repeatNewPassword")}
          type="password"
          autoComplete="new-password"
          state={failed}
        />
      </AuthForm>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${t(data?.locale ?? "en", "account.title")} | Acme` }];
