import { Link } from "react-router";

import type { Route } from "./+types/reset-password";
import { AuthForm, Field } from "../components/auth-form.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { resetPasswordSchema } from "../lib/auth/schemas.ts";

export function loader({ request }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("code") ?? "";
  return { code: code.slice(0, 512) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const result = await runAuthForm(request, context, AUTH_PAGES.resetPassword, (fields) =>
    getAuth(context).api.resetPasswordCms({
      body: parseInput(resetPasswordSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!result.ok) return result.failure;
  return redirectWithCookies(AUTH_PAGES.account, result.headers);
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.code) {
    return (
      <section>
        <h1>Reset your password</h1>
        <p className="form-error">
          This link is incomplete. <Link to={AUTH_PAGES.forgotPassword}>Ask for a new one</Link>.
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>Choose a new password</h1>
      <AuthForm state={actionData} submitLabel="Save the new password" pendingLabel="Saving…">
        <input type="hidden" name="code" value={loaderData.code} />
        <Field name="password" label="New password" type="password" autoComplete="new-password" state={actionData} />
        <Field
          name="passwordConfirmation"
          label="Repeat the new password"
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
export const meta: Route.MetaFunction = () => [{ title: "Choose a new password | Acme" }];
