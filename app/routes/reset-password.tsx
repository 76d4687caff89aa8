import { Link } from "react-router";

import type { Route } from "./+types/reset-password";
import { AuthForm, Field } from "../components/auth-form.tsx";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../lib/auth/paths.ts";
import { resetPasswordSchema } from "../lib/auth/schemas.ts";
import { secondStepOf } from "../lib/auth/two-factor-form.server.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { configContext } from "../lib/request-context.server.ts";

export const handle: AuthPageHandle = { authPage: "resetPassword" };

export function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const code = new URL(request.url).searchParams.get("code") ?? "";
  const forgot = authPath("forgotPassword", locale, localeConfigOf(context.get(configContext)));
  return { locale, code: code.slice(0, 512), forgot };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = pageLocale(params, context);
  const account = authPath("account", locale, localeConfigOf(context.get(configContext)));
  const result = await runAuthForm(request, context, AUTH_PAGES.resetPassword, async (fields) => {
    try {
      const reset = await getAuth(context).api.resetPasswordCms({
        body: parseInput(resetPasswordSchema, fields),
        headers: request.headers,
        returnHeaders: true,
      });
      return { headers: reset.headers, response: { location: account } };
    } catch (error) {
      // Two-factor on: the new password is saved, and the code is asked before a session starts.
      const secondStep = secondStepOf(error, context, locale, account);
      if (secondStep) return secondStep;
      throw error;
    }
  });
  if (!result.ok) return result.failure;
  return redirectWithCookies(result.response.location, result.headers);
}

export default function ResetPassword({ loaderData: { locale, code, forgot }, actionData }: Route.ComponentProps) {
  if (!code) {
    return (
      <section className="auth-page">
        <h1>{t(locale, "resetPassword.incompleteTitle")}</h1>
        <p className="form-error">
          {t(locale, "resetPassword.incomplete")} <Link to={forgot}>{t(locale, "resetPassword.askForNewOne")}</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="auth-page">
      <h1>{t(locale, "resetPassword.title")}</h1>
      <AuthForm
        state={actionData}
        submitLabel={t(locale, "resetPassword.submit")}
        pendingLabel={t(locale, "resetPassword.pending")}
      >
        <input type="hidden" name="code" value={code} />
        <Field
          name="password"
          label={t(locale, "field.newPassword")}
          type="password"
          autoComplete="new-password"
          state={actionData}
        />
        <Field
          name="passwordConfirmation"
          label={t(locale, "field.repeatNewPassword")}
          type="password"
          autoComplete="new-password"
          state={actionData}
        />
      </AuthForm>
      {actionData?.fieldErrors?.code && <p className="form-error">{actionData.fieldErrors.code}</p>}
    </section>
  );
}

// The code in the URL does not leak to other sites: Referrer-Policy strict-origin-when-cross-origin
// (server/security-headers.ts) sends them the origin only.
export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "resetPassword.title")} | Acme` },
];
