import { Link } from "react-router";

import type { Route } from "./+types/forgot-password";
import { AuthForm, Field } from "../components/auth-form.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { forgotPasswordSchema } from "../lib/auth/schemas.ts";

export async function action({ request, context }: Route.ActionArgs) {
  const result = await runAuthForm(request, context, AUTH_PAGES.forgotPassword, (fields) =>
    getAuth(context).api.forgotPasswordCms({
      body: parseInput(forgotPasswordSchema, fields),
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!result.ok) return result.failure;
  // The same answer whether or not the address has an account.
  return { ok: true as const, sentTo: result.fields.email ?? "" };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  if (actionData?.ok) {
    return (
      <section>
        <h1>Check your email</h1>
        <p role="status" className="form-success">
          If an account exists for {actionData.sentTo}, we have sent it a link to reset the password.
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>Forgot your password?</h1>
      <p>Enter your email address and we will send you a link to choose a new password.</p>
      <AuthForm state={actionData} submitLabel="Send the link" pendingLabel="Sending…">
        <Field name="email" label="Email" type="email" autoComplete="email" state={actionData} />
      </AuthForm>
      <p>
        <Link to={AUTH_PAGES.signIn}>Back to sign in</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Forgot your password? | Acme" }];
