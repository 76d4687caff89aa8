import { data, Link } from "react-router";

import type { Route } from "./+types/two-factor";
import { AuthForm, Field, type FormState } from "../../components/auth-form.tsx";
import type { AuthPageHandle } from "../../components/locale-switcher.tsx";
import { getAuth, getCmsTwoFactor } from "../../lib/auth/auth.server.ts";
import { redirectWithCookies, runAuthForm } from "../../lib/auth/form-action.server.ts";
import { parseInput } from "../../lib/auth/input.server.ts";
import { AUTH_PAGES, authPath } from "../../lib/auth/paths.ts";
import { requireSession } from "../../lib/auth/session.server.ts";
import {
  openRecoveryCodes,
  sealRecoveryCodes,
  twoFactorCookieOf,
  twoFactorSetCookie,
} from "../../lib/auth/two-factor-cookies.server.ts";
import { qrCodeSvg } from "../../lib/auth/two-factor-qr.server.ts";
import {
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  twoFactorSetupSchema,
} from "../../lib/auth/two-factor-schemas.ts";
import { t, type MessageKey } from "../../lib/i18n/messages.ts";
import { pageLocale } from "../../lib/i18n/page-locale.server.ts";
import { localeConfigOf } from "../../lib/locales.server.ts";
import { configContext } from "../../lib/request-context.server.ts";

/**
 * Two-factor authentication's settings (plugins/two-factor.server.ts does the work, the CMS keeps
 * the secret): set up (password → QR code and key, shown in this one answer only), turn on with
 * a first code (→ a new session, ten recovery codes shown once), new recovery codes, turn off.
 * Every form works without JavaScript. The recovery codes cross the redirect after turning on in
 * a sealed cookie (two-factor-cookies.server.ts) that the next render shows and expires.
 */

export const handle: AuthPageHandle = { authPage: "accountTwoFactor" };

const SETUP = "setup";
const ENABLE = "enable";
const NEW_CODES = "recovery-codes";
const DISABLE = "disable";

type Changed = "enabled" | "disabled" | "recovery-codes";
const CHANGED_MESSAGES = {
  enabled: "twoFactor.enabled",
  disabled: "twoFactor.disabled",
  "recovery-codes": "twoFactor.newCodesMade",
} as const satisfies Record<Changed, MessageKey>;
const CHANGED = Object.keys(CHANGED_MESSAGES) as Changed[];

function cookieOptions(context: Route.LoaderArgs["context"]) {
  const config = context.get(configContext);
  return { secure: config.APP_PUBLIC_URL.startsWith("https:"), secret: config.SESSION_AUTH_SECRET };
}

export async function loader({ request, params, context, url }: Route.LoaderArgs) {
  const locale = pageLocale(params, context);
  const { session, setCookies } = await requireSession(request, context, url);
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("set-cookie", cookie);
  // The CMS down: the page still renders, and says it cannot tell.
  const status = await getCmsTwoFactor(context)
    .status(session.cmsJWT)
    .catch(() => null);
  const { secure, secret } = cookieOptions(context);
  const sealed = twoFactorCookieOf(request.headers.get("cookie"), "codes", secure);
  let recoveryCodes: string[] | null = null;
  if (sealed) {
    recoveryCodes = await openRecoveryCodes(secret, sealed, session.user.id);
    headers.append("set-cookie", twoFactorSetCookie("codes", null, secure));
  }
  const changed = new URL(request.url).searchParams.get("changed");
  return data(
    {
      locale,
      status,
      recoveryCodes,
      changed: CHANGED.find((value) => value === changed) ?? null,
      account: authPath("account", locale, localeConfigOf(context.get(configContext))),
    },
    { headers },
  );
}

/** What each form's endpoint answered. */
type Outcome =
  | { intent: typeof SETUP; secret: string; uri: string }
  | { intent: typeof ENABLE | typeof NEW_CODES; recoveryCodes: string[] }
  | { intent: typeof DISABLE };

/** The endpoint behind each form. */
async function twoFactorCall(
  request: Request,
  context: Route.ActionArgs["context"],
  fields: Record<string, string>,
): Promise<{ headers: Headers; response: Outcome }> {
  const api = getAuth(context).api;
  const headers = request.headers;
  if (fields.intent === SETUP) {
    const body = parseInput(twoFactorSetupSchema, fields);
    const answer = await api.twoFactorSetupCms({ body, headers, returnHeaders: true });
    return { headers: answer.headers, response: { intent: SETUP, ...answer.response } };
  }
  if (fields.intent === ENABLE || fields.intent === NEW_CODES) {
    const body = parseInput(twoFactorCodeSchema, fields);
    const answer =
      fields.intent === ENABLE
        ? await api.twoFactorEnableCms({ body, headers, returnHeaders: true })
        : await api.twoFactorRecoveryCodesCms({ body, headers, returnHeaders: true });
    return {
      headers: answer.headers,
      response: { intent: fields.intent, recoveryCodes: answer.response.recoveryCodes },
    };
  }
  const body = parseInput(twoFactorDisableSchema, fields);
  const answer = await api.twoFactorDisableCms({ body, headers, returnHeaders: true });
  return { headers: answer.headers, response: { intent: DISABLE } };
}

export async function action({ request, params, context, url }: Route.ActionArgs) {
  const locale = pageLocale(params, context);
  const { session } = await requireSession(request, context, url);
  const result = await runAuthForm<Outcome>(request, context, AUTH_PAGES.accountTwoFactor, (fields) =>
    twoFactorCall(request, context, fields),
  );
  if (!result.ok) return result.failure;
  const { response } = result;
  const page = authPath("accountTwoFactor", locale, localeConfigOf(context.get(configContext)));
  // Set-up answers in place: the secret is in this answer only (never in a cookie or a URL).
  if (response.intent === SETUP) {
    const setup = { secret: response.secret, qrSvg: await qrCodeSvg(response.uri) };
    return data({ ok: true as const, setup }, { headers: result.headers });
  }
  if (response.intent === DISABLE) return redirectWithCookies(`${page}?changed=disabled`, result.headers);
  // Post/redirect/get: the new session's cookies (enable), and the codes to show once, sealed.
  const { secure, secret } = cookieOptions(context);
  const sealed = await sealRecoveryCodes(secret, session.user.id, response.recoveryCodes);
  result.headers.append("set-cookie", twoFactorSetCookie("codes", sealed, secure));
  const changed: Changed = response.intent === ENABLE ? "enabled" : "recovery-codes";
  return redirectWithCookies(`${page}?changed=${changed}`, result.headers);
}

export default function AccountTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, status, recoveryCodes, changed } = loaderData;
  const setup = actionData?.ok ? actionData.setup : undefined;
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const failed = (intent: string): FormState | undefined => (failure?.values?.intent === intent ? failure : undefined);
  // Refused before its fields were read (another site's form, the rate limit): said at the top.
  const unplaced = failure && ![SETUP, ENABLE, NEW_CODES, DISABLE].includes(failure.values?.intent ?? "");
  return (
    <section className="account-page">
      <h1>{t(locale, "twoFactor.title")}</h1>
      {changed && !failure && (
        <p role="status" className="form-success">
          {t(locale, CHANGED_MESSAGES[changed])}
        </p>
      )}
      {unplaced && (
        <p role="alert" className="form-error">
          {failure.message}
        </p>
      )}
      {recoveryCodes && (
        <div className="recovery-codes">
          <h2>{t(locale, "twoFactor.codesTitle")}</h2>
          <p>{t(locale, "twoFactor.codesIntro")}</p>
          <ol data-testid="recovery-codes">
            {recoveryCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
        </div>
      )}
      <p data-testid="two-factor-status">
        {status === null
          ? t(locale, "twoFactor.unknown")
          : status.enabled
            ? t(locale, "twoFactor.on", { count: status.recoveryCodesLeft })
            : t(locale, "twoFactor.off")}
      </p>

      {status?.enabled === false && (setup || failed(ENABLE)) && (
        <>
          <h2>{t(locale, "twoFactor.scanTitle")}</h2>
          {setup ? (
            <>
              <p>{t(locale, "twoFactor.scan")}</p>
              <div
                className="qr-code"
                role="img"
                aria-label={t(locale, "twoFactor.qrLabel")}
                dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
              />
              <p>
                {t(locale, "twoFactor.manual")} <code data-testid="two-factor-secret">{setup.secret}</code>
              </p>
            </>
          ) : (
            <p>{t(locale, "twoFactor.enableAgain")}</p>
          )}
          <AuthForm
            state={failed(ENABLE)}
            submitLabel={t(locale, "twoFactor.enableSubmit")}
            pendingLabel={t(locale, "twoFactor.enablePending")}
          >
            <input type="hidden" name="intent" value={ENABLE} />
            <Field
              name="code"
              id="enable-code"
              label={t(locale, "twoFactor.enableCode")}
              autoComplete="one-time-code"
              state={failed(ENABLE)}
            />
          </AuthForm>
        </>
      )}

      {status?.enabled === false && !setup && (
        <>
          <p>{t(locale, "twoFactor.setupIntro")}</p>
          <AuthForm
            state={failed(SETUP)}
            submitLabel={t(locale, "twoFactor.setupSubmit")}
            pendingLabel={t(locale, "twoFactor.setupPending")}
          >
            <input type="hidden" name="intent" value={SETUP} />
            <Field
              name="currentPassword"
              id="setup-currentPassword"
              label={t(locale, "field.currentPassword")}
              type="password"
              autoComplete="current-password"
              state={failed(SETUP)}
            />
          </AuthForm>
        </>
      )}

      {status?.enabled && (
        <>
          <h2>{t(locale, "twoFactor.newCodesTitle")}</h2>
          <p>{t(locale, "twoFactor.newCodesIntro")}</p>
          <AuthForm
            state={failed(NEW_CODES)}
            submitLabel={t(locale, "twoFactor.newCodesSubmit")}
            pendingLabel={t(locale, "twoFactor.newCodesPending")}
          >
            <input type="hidden" name="intent" value={NEW_CODES} />
            <Field
              name="code"
              id="new-codes-code"
              label={t(locale, "twoFactor.codeLabel")}
              autoComplete="one-time-code"
              state={failed(NEW_CODES)}
            />
          </AuthForm>

          <h2>{t(locale, "twoFactor.disableTitle")}</h2>
          <p>{t(locale, "twoFactor.disableIntro")}</p>
          <AuthForm
            state={failed(DISABLE)}
            submitLabel={t(locale, "twoFactor.disableSubmit")}
            pendingLabel={t(locale, "twoFactor.disablePending")}
          >
            <input type="hidden" name="intent" value={DISABLE} />
            <Field
              name="currentPassword"
              id="disable-currentPassword"
              label={t(locale, "field.currentPassword")}
              type="password"
              autoComplete="current-password"
              state={failed(DISABLE)}
            />
            <Field
              name="code"
              id="disable-code"
              label={t(locale, "twoFactor.codeLabel")}
              autoComplete="one-time-code"
              state={failed(DISABLE)}
            />
          </AuthForm>
        </>
      )}

      <p>
        <Link to={loaderData.account}>{t(locale, "twoFactor.backToAccount")}</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "twoFactor.title")} | Acme` },
];
