import { Form } from "react-router";

import type { Route } from "./+types/sign-out";
import type { AuthPageHandle } from "../components/locale-switcher.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { t } from "../lib/i18n/messages.ts";
import { pageLocale } from "../lib/i18n/page-locale.server.ts";
import { localizedPath } from "../lib/locale-path.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { configContext } from "../lib/request-context.server.ts";

export const handle: AuthPageHandle = { authPage: "signOut" };

export function loader({ params, context }: Route.LoaderArgs) {
  return { locale: pageLocale(params, context) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = pageLocale(params, context);
  const result = await runAuthForm(request, context, AUTH_PAGES.signOut, () =>
    getAuth(context).api.signOut({ headers: request.headers, returnHeaders: true }),
  );
  if (!result.ok) return result.failure;
  // Back to the home page of the locale the visitor was using.
  return redirectWithCookies(localizedPath("/", locale, localeConfigOf(context.get(configContext))), result.headers);
}

/** GET /sign-out only offers the button: signing out changes state, so it is a POST. */
export default function SignOut({ loaderData: { locale }, actionData }: Route.ComponentProps) {
  return (
    <section className="auth-page">
      <h1>{t(locale, "signOut.title")}</h1>
      {actionData && !actionData.ok && <p className="form-error">{actionData.message}</p>}
      <Form method="post">
        <button type="submit">{t(locale, "signOut.submit")}</button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${t(loaderData?.locale ?? "en", "signOut.title")} | Acme` },
];
