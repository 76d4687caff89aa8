import { data, Link } from "react-router";

import type { Route } from "./+types/account";
import { AuthForm, Field } from "../components/auth-form.tsx";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { requestEmailChangeSchema } from "../lib/auth/email-change-schemas.ts";
import { redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../lib/auth/paths.ts";
import { changeUsernameSchema, deleteAccountSchema, updatePasswordSchema } from "../lib/auth/schemas.ts";
import { requireSession } from "../lib/auth/session.server.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { localizedPath } from "../lib/locale-path.ts";
import { configContext } from "../lib/request-context.server.ts";

export const handle: AuthPageHandle = { authPage: "account" };

export async function loader({ request, params, context, url }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const { session, setCookies } = await requireSession(request, context, url);
  // The public user only: the CMS JWT never goes into loader data.
  const changed = new URL(request.url).searchParams.get("changed");
  return data(
    {
      user: session.user,
      locale,
      passwordChanged: changed === "password",
      usernameChanged: changed === "username",
      emailChangeRequested: changed === "email-requested",
      emailChanged: changed === "email",
    },
    { headers: setCookies.map((cookie) => ["set-cookie", cookie] as [string, string]) },
  );
}

/** The account page's forms, told apart by their `intent` field. */
const SIGN_OUT_EVERYWHERE = "sign-out-everywhere";
const CHANGE_USERNAME = "change-username";
const DELETE_ACCOUNT = "delete-account";
const CHANGE_EMAIL = "change-email";

/** The auth endpoint behind each of the page's forms. */
function accountCall(
  request: Request,
  context: Route.ActionArgs["context"],
  fields: Record<string, string>,
  locale: string,
) {
  const auth = getAuth(context);
  const headers = request.headers;
  if (fields.intent === CHANGE_EMAIL) {
    // The mail's link goes to the confirm page in this page's locale (the default one unprefixed).
    const prefixed = locale !== localeConfigOf(context.get(configContext)).defaultLocale;
    const body = parseInput(requestEmailChangeSchema, { ...fields, ...(prefixed ? { locale } : {}) });
    return auth.api.requestEmailChangeCms({ body, headers, returnHeaders: true });
  }
  if (fields.intent === SIGN_OUT_EVERYWHERE) return auth.api.signOutEverywhereCms({ headers, returnHeaders: true });
  if (fields.intent === DELETE_ACCOUNT) {
    const body = parseInput(deleteAccountSchema, fields);
    return auth.api.deleteAccountCms({ body, headers, returnHeaders: true });
  }
  if (fields.intent === CHANGE_USERNAME) {
    const body = parseInput(changeUsernameSchema, fields);
    return auth.api.changeUsernameCms({ body, headers, returnHeaders: true });
  }
  return auth.api.updatePasswordCms({ body: parseInput(updatePasswordSchema, fields), headers, returnHeaders: true });
}

export async function action({ request, params, context, url }: Route.ActionArgs) {
  const locale = pageLocale(params, context);
  await requireSession(request, context, url);
  const result = await runAuthForm<unknown>(request, context, AUTH_PAGES.account, (fields) =>
    accountCall(request, context, fields, locale),
  );
  if (!result.ok) return result.failure;
  const config = localeConfigOf(context.get(configContext));
  // Every session of the user has ended, this one too: its cookies are expired on the way.
  if (result.fields.intent === SIGN_OUT_EVERYWHERE) {
    return redirectWithCookies(authPath("signIn", locale, config), result.headers);
  }
  // The account is gone, and this session with it.
  if (result.fields.intent === DELETE_ACCOUNT)
    return redirectWithCookies(localizedPath("/", locale, config), result.headers);
  if (result.fields.intent === CHANGE_EMAIL) {
    return redirectWithCookies(`${authPath("account", locale, config)}?changed=email-requested`, result.headers);
  }
  if (result.fields.intent === CHANGE_USERNAME) {
    return redirectWithCookies(`${authPath("account", locale, config)}?changed=username`, result.headers);
  }
  // The password change issued a new session: redirect (post/redirect/get), so that this answer
  // carries only the new session's cookies, not also the old ones this page's loader repeats.
  return redirectWithCookies(`${authPath("account", locale, config)}?changed=password`, result.headers);
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { user, locale, passwordChanged, usernameChanged, emailChangeRequested, emailChanged } = loaderData;
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const everywhereFailed = failure?.values?.intent === SIGN_OUT_EVERYWHERE ? failure : undefined;
  const usernameFailed = failure?.values?.intent === CHANGE_USERNAME ? failure : undefined;
  const deleteFailed = failure?.values?.intent === DELETE_ACCOUNT ? failure : undefined;
  const emailFailed = failure?.values?.intent === CHANGE_EMAIL ? failure : undefined;
  const failed = everywhereFailed || usernameFailed || deleteFailed || emailFailed ? undefined : failure;
  return (
    <section className="account-page">
      <h1>{t(locale, "account.title")}</h1>
      <dl>
        <dt>{t(locale, "account.name")}</dt>
        <dd data-testid="account-name">{user.name}</dd>
        <dt>{t(locale, "account.email")}</dt>
        <dd data-testid="account-email">{user.email}</dd>
        <dt>{t(locale, "account.signedInWith")}</dt>
        <dd>{user.provider === "credentials" ? t(locale, "account.emailAndPassword") : user.provider}</dd>
      </dl>

      <h2>{t(locale, "account.changeName")}</h2>
      {usernameChanged && !failure && (
        <p role="status" className="form-success">
          {t(locale, "account.nameChanged")}
        </p>
      )}
      <AuthForm
        state={usernameFailed}
        submitLabel={t(locale, "account.changeNameSubmit")}
        pendingLabel={t(locale, "account.pending")}
      >
        <input type="hidden" name="intent" value={CHANGE_USERNAME} />
        <Field
          name="username"
          label={t(locale, "field.name")}
          autoComplete="username"
          defaultValue={user.name}
          state={usernameFailed}
        />
      </AuthForm>

      <h2>{t(locale, "account.changeEmail")}</h2>
      {emailChanged && !failure && (
        <p role="status" className="form-success">
          {t(locale, "account.emailChanged")}
        </p>
      )}
      {emailChangeRequested && !failure && (
        <p role="status" className="form-success">
          {t(locale, "account.emailChangeRequested")}
        </p>
      )}
      <p>{t(locale, "account.changeEmailIntro")}</p>
      <AuthForm
        state={emailFailed}
        submitLabel={t(locale, "account.changeEmailSubmit")}
        pendingLabel={t(locale, "account.changeEmailPending")}
      >
        <input type="hidden" name="intent" value={CHANGE_EMAIL} />
        <Field
          name="email"
          id="change-email"
          label={t(locale, "account.newEmail")}
          type="email"
          autoComplete="email"
          state={emailFailed}
        />
        <Field
          name="currentPassword"
          id="change-email-currentPassword"
          label={t(locale, "account.changeEmailPassword")}
          type="password"
          autoComplete="current-password"
          state={emailFailed}
        />
      </AuthForm>

      <h2>{t(locale, "account.changePassword")}</h2>
      {passwordChanged && !failure && (
        <p role="status" className="form-success">
          {t(locale, "account.passwordChanged")}
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

      <h2>{t(locale, "account.signOutEverywhere")}</h2>
      <p>{t(locale, "account.signOutEverywhereIntro")}</p>
      <AuthForm
        state={everywhereFailed}
        submitLabel={t(locale, "account.signOutEverywhereSubmit")}
        pendingLabel={t(locale, "account.signOutEverywherePending")}
      >
        <input type="hidden" name="intent" value={SIGN_OUT_EVERYWHERE} />
      </AuthForm>

      <h2>{t(locale, "twoFactor.title")}</h2>
      <p>{t(locale, "account.twoFactorIntro")}</p>
      <p>
        {/* app/routes/account/two-factor.tsx, under this page's path in any locale. */}
        <Link to="two-factor" relative="path">
          {t(locale, "account.twoFactorLink")}
        </Link>
      </p>

      <h2>{t(locale, "account.delete")}</h2>
      <p>{t(locale, "account.deleteIntro")}</p>
      <AuthForm
        state={deleteFailed}
        submitLabel={t(locale, "account.deleteSubmit")}
        pendingLabel={t(locale, "account.deletePending")}
      >
        <input type="hidden" name="intent" value={DELETE_ACCOUNT} />
        <Field
          name="currentPassword"
          id="delete-currentPassword"
          label={t(locale, "account.deletePassword")}
          type="password"
          autoComplete="current-password"
          state={deleteFailed}
        />
      </AuthForm>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "account.title")} | Acme` },
];
