import { Link } from "react-router";

import type { Route } from "./+types/confirm-email";
import { AuthForm, Field } from "../components/auth-form.tsx";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { confirmEmailSchema, resendConfirmationSchema } from "../lib/auth/confirm-email-schemas.ts";
import { runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../lib/auth/paths.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { configContext } from "../lib/request-context.server.ts";

/**
 * Where the email-confirmation mail's link lands: `/confirm-email?confirmation=<code>`. Opening
 * the link changes nothing (mail scanners and link previews open links too): the page shows a
 * button, and its POST asks the CMS to confirm the code (docs/cms-contract.md, "Email
 * confirmation"). Without a code (or after an invalid one) the page offers a new mail, with the
 * same answer whatever the address (decision 0009). `?status=confirmed` is where the CMS sends a
 * browser that opened its own confirmation URL. An auth page (app/lib/auth/paths.ts): also under
 * the locale prefix (`/de/confirm-email`), never stored in the page cache, never framed.
 */

export const handle: AuthPageHandle = { authPage: "confirmEmail" };

export function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const query = new URL(request.url).searchParams;
  return {
    locale,
    signIn: authPath("signIn", locale, localeConfigOf(context.get(configContext))),
    code: (query.get("confirmation") ?? "").slice(0, 512),
    confirmed: query.get("status") === "confirmed",
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  pageLocale(params, context);
  // One rate-limit budget for both forms (FORM_BUDGETS, the reset-password one).
  const result = await runAuthForm(request, context, AUTH_PAGES.confirmEmail, async (fields) => {
    const auth = getAuth(context);
    if (fields.intent === "resend") {
      const body = parseInput(resendConfirmationSchema, fields);
      return auth.api.resendConfirmationCms({ body, headers: request.headers, returnHeaders: true });
    }
    const body = parseInput(confirmEmailSchema, fields);
    return auth.api.confirmEmailCms({ body, headers: request.headers, returnHeaders: true });
  });
  if (!result.ok) return result.failure;
  if (result.fields.intent === "resend") return { ok: true as const, resent: result.fields.email ?? "" };
  return { ok: true as const, confirmed: true as const };
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { locale } = loaderData;
  const signIn = (
    <p>
      <Link to={loaderData.signIn}>{t(locale, "signIn.title")}</Link>
    </p>
  );
  if (loaderData.confirmed || (actionData?.ok && "confirmed" in actionData)) {
    return (
      <section className="auth-page">
        <h1>{t(locale, "confirmEmail.confirmedTitle")}</h1>
        <p role="status" className="form-success">
          {t(locale, "confirmEmail.confirmed")}
        </p>
        {signIn}
      </section>
    );
  }
  if (actionData?.ok && "resent" in actionData) {
    return (
      <section className="auth-page">
        <h1>{t(locale, "confirmEmail.resentTitle")}</h1>
        <p role="status" className="form-success">
          {t(locale, "confirmEmail.resent", { email: actionData.resent })}
        </p>
        {signIn}
      </section>
    );
  }
  const confirmFailed = actionData && !actionData.ok && actionData.values?.intent !== "resend";
  if (loaderData.code && !confirmFailed) {
    return (
      <section className="auth-page">
        <h1>{t(locale, "confirmEmail.title")}</h1>
        <p>{t(locale, "confirmEmail.intro")}</p>
        <AuthForm
          state={actionData}
          submitLabel={t(locale, "confirmEmail.submit")}
          pendingLabel={t(locale, "confirmEmail.pending")}
        >
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="code" value={loaderData.code} />
        </AuthForm>
      </section>
    );
  }
  return (
    <section className="auth-page">
      <h1>{t(locale, confirmFailed ? "confirmEmail.failedTitle" : "confirmEmail.title")}</h1>
      {confirmFailed && (
        <p role="alert" className="form-error">
          {actionData.message}
        </p>
      )}
      <p>{t(locale, "confirmEmail.askForNew")}</p>
      <AuthForm
        state={confirmFailed ? undefined : actionData}
        submitLabel={t(locale, "confirmEmail.resendSubmit")}
        pendingLabel={t(locale, "confirmEmail.resendPending")}
      >
        <input type="hidden" name="intent" value="resend" />
        <Field name="email" label={t(locale, "field.email")} type="email" autoComplete="email" state={actionData} />
      </AuthForm>
      {signIn}
    </section>
  );
}

// The code in the URL does not leak to other sites: Referrer-Policy strict-origin-when-cross-origin
// (server/security-headers.ts) sends them the origin only.
export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "confirmEmail.title")} | Acme` },
];
