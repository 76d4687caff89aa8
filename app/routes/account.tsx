import { data } from "react-router";

import type { Route } from "./+types/account";
import { AuthForm, Field } from "../components/auth-form.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { updatePasswordSchema } from "../lib/auth/schemas.ts";
import { requireSession } from "../lib/auth/session.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { session, setCookies } = await requireSession(request, context);
  // The public user only: the CMS JWT never goes into loader data.
  return data(
    { user: session.user },
    { headers: setCookies.map((cookie) => ["set-cookie", cookie] as [string, string]) },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
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
    { ok: true as const, message: "Your password has been changed." },
    { headers: result.headers.getSetCookie().map((cookie) => ["set-cookie", cookie] as [string, string]) },
  );
}

export default function Account({ loaderData: { user }, actionData }: Route.ComponentProps) {
  const failed = actionData && !actionData.ok ? actionData : undefined;
  return (
    <section>
      <h1>Your account</h1>
      <dl>
        <dt>Name</dt>
        <dd data-testid="account-name">{user.name}</dd>
        <dt>Email</dt>
        <dd data-testid="account-email">{user.email}</dd>
        <dt>Signed in with</dt>
        <dd>{user.provider === "credentials" ? "email and password" : user.provider}</dd>
      </dl>

      <h2>Change your password</h2>
      {actionData?.ok && (
        <p role="status" className="form-success">
          {actionData.message}
        </p>
      )}
      <AuthForm state={failed} submitLabel="Change password" pendingLabel="Changing…">
        <Field
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          state={failed}
        />
        <Field name="password" label="New password" type="password" autoComplete="new-password" state={failed} />
        <Field
          name="passwordConfirmation"
          label="Repeat the new password"
          type="password"
          autoComplete="new-password"
          state={failed}
        />
      </AuthForm>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Your account | Acme" }];
