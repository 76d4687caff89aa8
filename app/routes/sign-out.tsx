import { Form } from "react-router";

import type { Route } from "./+types/sign-out";
import { getAuth } from "../lib/auth/auth.server.ts";
import { redirectWithCookies, runAuthForm } from "../lib/auth/form-action.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";

export async function action({ request, context }: Route.ActionArgs) {
  const result = await runAuthForm(request, context, AUTH_PAGES.signOut, () =>
    getAuth(context).api.signOut({ headers: request.headers, returnHeaders: true }),
  );
  if (!result.ok) return result.failure;
  return redirectWithCookies("/", result.headers);
}

/** GET /sign-out only offers the button: signing out changes state, so it is a POST. */
export default function SignOut({ actionData }: Route.ComponentProps) {
  return (
    <section>
      <h1>Sign out</h1>
      {actionData && !actionData.ok && <p className="form-error">{actionData.message}</p>}
      <Form method="post">
        <button type="submit">Sign out</button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Sign out | Acme" }];
