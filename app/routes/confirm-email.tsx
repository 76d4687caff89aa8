import { Link } from "react-router";

import type { Route } from "./+types/confirm-email";
import { AuthForm, Field } from "../components/auth-form.tsx";
import { getAuth } from "../lib/auth/auth.server.ts";
import { confirmEmailSchema, resendConfirmationSchema } from "../lib/auth/confirm-email-schemas.ts";
import { runAuthForm } from "../lib/auth/form-action.server.ts";
import { parseInput } from "../lib/auth/input.server.ts";
import { AUTH_PAGES } from "../lib/auth/paths.ts";
import { markDynamic } from "../lib/request-context.server.ts";

/**
 * Where the email-confirmation mail's link lands: `/confirm-email?confirmation=<code>`. Opening
 * the link changes nothing (mail scanners and link previews open links too): the page shows a
 * button, and its POST asks the CMS to confirm the code (docs/cms-contract.md, "Email
 * confirmation"). Without a code (or after an invalid one) the page offers a new mail, with the
 * same answer whatever the address (decision 0009). `?status=confirmed` is where the CMS sends a
 * browser that opened its own confirmation URL. Never stored in the page cache (markDynamic).
 */

// The page reads these query parameters (server/cache/declared-query.ts).
export const handle = { cacheQuery: ["confirmation", "status"] };

export function loader({ request, context }: Route.LoaderArgs) {
  markDynamic(context);
  const query = new URL(request.url).searchParams;
  return {
    code: (query.get("confirmation") ?? "").slice(0, 512),
    confirmed: query.get("status") === "confirmed",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  // One rate-limit budget for both forms, the reset-password one: each tries a code from a mail
  // or sends a mail to an address anyone can type.
  const result = await runAuthForm(request, context, AUTH_PAGES.resetPassword, async (fields) => {
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
  if (loaderData.confirmed || (actionData?.ok && "confirmed" in actionData)) {
    return (
      <section>
        <h1>Email address confirmed</h1>
        <p role="status" className="form-success">
          Thank you: your email address is confirmed. You can sign in now.
        </p>
        <p>
          <Link to={AUTH_PAGES.signIn}>Sign in</Link>
        </p>
      </section>
    );
  }
  if (actionData?.ok && "resent" in actionData) {
    return (
      <section>
        <h1>Check your inbox</h1>
        <p role="status" className="form-success">
          If an account for {actionData.resent} is waiting for its confirmation, we have sent it a new link. It can take
          a few minutes to arrive.
        </p>
        <p>
          <Link to={AUTH_PAGES.signIn}>Sign in</Link>
        </p>
      </section>
    );
  }
  const confirmFailed = actionData && !actionData.ok && actionData.values?.intent !== "resend";
  if (loaderData.code && !confirmFailed) {
    return (
      <section>
        <h1>Confirm your email address</h1>
        <p>Confirm that this email address is yours to finish creating your account.</p>
        <AuthForm state={actionData} submitLabel="Confirm my email address" pendingLabel="Confirming…">
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="code" value={loaderData.code} />
        </AuthForm>
      </section>
    );
  }
  return (
    <section>
      <h1>{confirmFailed ? "This link did not work" : "Confirm your email address"}</h1>
      {confirmFailed && (
        <p role="alert" className="form-error">
          {actionData.message}
        </p>
      )}
      <p>No confirmation mail, or the link did not work? Ask for a new one.</p>
      <AuthForm
        state={confirmFailed ? undefined : actionData}
        submitLabel="Send a new confirmation link"
        pendingLabel="Sending…"
      >
        <input type="hidden" name="intent" value="resend" />
        <Field name="email" label="Email" type="email" autoComplete="email" state={actionData} />
      </AuthForm>
      <p>
        <Link to={AUTH_PAGES.signIn}>Sign in</Link>
      </p>
    </section>
  );
}

// The code in the URL does not leak to other sites: Referrer-Policy strict-origin-when-cross-origin
// (server/security-headers.ts) sends them the origin only.
export const meta: Route.MetaFunction = () => [{ title: "Confirm your email address | Acme" }];
