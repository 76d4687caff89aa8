import { Link, redirect } from "react-router";

import type { Route } from "./+types/register";
import { AuthForm, Field } from "../components/auth-form.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { registerSchema } from "../lib/auth/schemas.ts";
import { getServerSession } from "../lib/auth/session.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { session } = await getServerSession(request, context);
  if (session) throw redirect(AUTH_PAGES.account);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const result = await runAuthForm(request, context, AUTH_PAGES.register, (fields) =>
    getAuth(context).api.registerCms({
      body: parseInput(registerSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!result.ok) return result.failure;
  // The same answer whether the address was new or already registered, and no session:
  // signing in only the new ones would tell them apart.
  return { ok: true as const, message: result.response.message };
}

export default function Register({ actionData }: Route.ComponentProps) {
  if (actionData?.ok) {
    return (
      <section>
        <h1>Thank you</h1>
        <p role="status" className="form-success">
          {actionData.message}
        </p>
        <p>
          <Link to={AUTH_PAGES.signIn}>Sign in</Link> ·{" "}
          <Link to={AUTH_PAGES.forgotPassword}>Forgot your password?</Link>
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>Create an account</h1>
      <AuthForm state={actionData} submitLabel="Create account" pendingLabel="Creating your account…">
        <Field name="email" label="Email" type="email" autoComplete="email" state={actionData} />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          state={actionData}
        />
        <Field
          name="passwordConfirmation"
          label="Repeat the password"
          type="password"
          autoComplete="new-password"
          state={actionData}
        />
      </AuthForm>
      <p>
        Already registered? <Link to={AUTH_PAGES.signIn}>Sign in</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Create an account | Acme" }];
