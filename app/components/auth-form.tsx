import { useEffect, useId, useRef, type CSSProperties, type ReactNode } from "react";
import { Form, useLoaderData, useNavigation } from "react-router";

import { FORM_TOKEN_FIELD, HONEYPOT_FIELD, type FormTokenData } from "../lib/auth/form-token.ts";
import { t } from "../lib/i18n/messages.ts";

/**
 * The building blocks of the auth forms. They work as plain HTML forms with JavaScript
 * off; with it on, React Router submits them without a reload, the button shows the
 * pending state and focus moves to the first field with an error.
 *
 * On a page whose loader issues a form token (`formToken`: sign-in, register, forgot-password),
 * every AuthForm carries the bot check's two fields (docs/decisions/0021-bot-check-on-auth-forms.md):
 * the token, and a honeypot that people never see or reach and leave empty.
 */

/** Off-screen, not `display: none` (which some bots skip); inline so it holds without the style sheet. */
const OFF_SCREEN: CSSProperties = {
  position: "absolute",
  left: "-10000px",
  width: "1px",
  height: "1px",
  overflow: "hidden",
};

export interface FormState {
  message?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

export function AuthForm({
  state,
  children,
  submitLabel,
  pendingLabel,
}: {
  state: FormState | undefined;
  children: ReactNode;
  submitLabel: string;
  pendingLabel: string;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const formRef = useRef<HTMLFormElement>(null);
  const botCheck = useLoaderData<FormTokenData & { locale?: string }>();
  const honeypotId = useId();

  useEffect(() => {
    if (!state?.fieldErrors && !state?.message) return;
    // As with JavaScript off (the server never sends a password back): type it again.
    for (const input of formRef.current?.querySelectorAll<HTMLInputElement>("input[type='password']") ?? []) {
      input.value = "";
    }
    const invalid = formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']");
    (invalid ?? formRef.current?.querySelector<HTMLElement>("[role='alert']"))?.focus();
  }, [state]);

  return (
    <Form method="post" ref={formRef} noValidate className="auth-form">
      {state?.message && (
        <p role="alert" tabIndex={-1} className="form-error">
          {state.message}
        </p>
      )}
      {botCheck?.formToken && (
        <>
          <input type="hidden" name={FORM_TOKEN_FIELD} value={botCheck.formToken} />
          <div aria-hidden="true" style={OFF_SCREEN}>
            <label htmlFor={honeypotId}>{t(botCheck.locale ?? "en", "botCheck.leaveEmpty")}</label>
            {/* A new token (each answer's page) empties it, as a page rendered anew without JavaScript does. */}
            <input
              key={botCheck.formToken}
              id={honeypotId}
              name={HONEYPOT_FIELD}
              type="text"
              tabIndex={-1}
              autoComplete="off"
            />
          </div>
        </>
      )}
      {children}
      <button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? pendingLabel : submitLabel}
      </button>
    </Form>
  );
}

export function Field({
  name,
  label,
  type = "text",
  state,
  autoComplete,
  defaultValue,
  hint,
  id = name,
}: {
  name: string;
  /** The input's id, when two forms on one page have a field of the same name. */
  id?: string;
  label: string;
  type?: string;
  state: FormState | undefined;
  autoComplete?: string;
  defaultValue?: string;
  hint?: string;
}) {
  const error = state?.fieldErrors?.[name];
  const errorId = `${id}-error`;
  // Passwords are never put back into the form.
  const value = type === "password" ? undefined : (state?.values?.[name] ?? defaultValue);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {hint && !error && <small>{hint}</small>}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
