import { useId, type CSSProperties } from "react";

import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from "../../lib/auth/form-token.ts";
import { t } from "../../lib/i18n/messages.ts";
import { CONSENT_FIELD, FIELD_PREFIX, SECTION_FIELD } from "../../lib/forms/form-fields.ts";
import { Paragraphs } from "./section-parts.tsx";
import type { FormField, FormSection } from "./types.ts";

/** Off-screen, not `display: none` (which some bots skip), as the auth forms' honeypot. */
const OFF_SCREEN: CSSProperties = {
  position: "absolute",
  left: "-10000px",
  width: "1px",
  height: "1px",
  overflow: "hidden",
};

/**
 * A content form (docs/forms.md): a plain HTML post to the page's own address, the same with
 * JavaScript on or off (content pages ship none: decision 0035). The answer to a post renders the
 * page again with this section's `state`: the thank-you in place of the form, or the messages
 * above and next to the fields with what was typed kept. The bot check's token and honeypot are
 * the auth forms' (decision 0021).
 */
export function ContentForm({ section }: { section: FormSection }) {
  const id = useId();
  const headingId = `${id}-heading`;
  const state = section.state;
  const locale = section.locale;
  if (state?.status === "sent") {
    return (
      <section className="section section-form" aria-labelledby={section.heading ? headingId : undefined}>
        {section.heading && <h2 id={headingId}>{section.heading}</h2>}
        <p role="status" className="form-success">
          {state.message}
        </p>
      </section>
    );
  }
  return (
    <section className="section section-form" aria-labelledby={section.heading ? headingId : undefined}>
      {section.heading && <h2 id={headingId}>{section.heading}</h2>}
      {section.intro && <Paragraphs text={section.intro} />}
      <form method="post" action={section.action} noValidate className="auth-form content-form">
        {state?.message && (
          <p role="alert" className="form-error">
            {state.message}
          </p>
        )}
        <input type="hidden" name={SECTION_FIELD} value={section.id} />
        <input type="hidden" name={FORM_TOKEN_FIELD} value={section.formToken} />
        <div aria-hidden="true" style={OFF_SCREEN}>
          <label htmlFor={`${id}-hp`}>{t(locale, "botCheck.leaveEmpty")}</label>
          <input id={`${id}-hp`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        {section.fields.map((field) => (
          <FieldView key={field.name} field={field} formId={id} section={section} />
        ))}
        {section.consentText && (
          <Consent
            text={section.consentText}
            formId={id}
            error={state?.errors[CONSENT_FIELD]}
            checked={state?.values[CONSENT_FIELD] === "yes"}
          />
        )}
        <button type="submit">{section.submitLabel}</button>
      </form>
    </section>
  );
}

function FieldView({ field, formId, section }: { field: FormField; formId: string; section: FormSection }) {
  const inputId = `${formId}-${field.name}`;
  const errorId = `${inputId}-error`;
  const error = section.state?.errors[field.name];
  const value = section.state?.values[field.name] ?? "";
  const name = `${FIELD_PREFIX}${field.name}`;
  const common = {
    id: inputId,
    name,
    required: field.required || undefined,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  } as const;
  const label = (
    <label htmlFor={inputId}>
      {field.label}
      {field.required && <span className="required-mark"> {t(section.locale, "form.required")}</span>}
    </label>
  );
  const message = error && (
    <p id={errorId} className="field-error">
      {error}
    </p>
  );
  if (field.type === "checkbox") {
    return (
      <div className="field field-checkbox">
        <input {...common} type="checkbox" value="yes" defaultChecked={value === "yes"} />
        {label}
        {message}
      </div>
    );
  }
  return (
    <div className="field">
      {label}
      {field.type === "textarea" ? (
        <textarea {...common} rows={6} defaultValue={value} />
      ) : field.type === "select" ? (
        <select {...common} defaultValue={value}>
          <option value="">{t(section.locale, "form.choose")}</option>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={field.type}
          autoComplete={field.type === "email" ? "email" : undefined}
          defaultValue={value}
        />
      )}
      {message}
    </div>
  );
}

function Consent({ text, formId, error, checked }: { text: string; formId: string; error?: string; checked: boolean }) {
  const inputId = `${formId}-${CONSENT_FIELD}`;
  const errorId = `${inputId}-error`;
  return (
    <div className="field field-checkbox">
      <input
        id={inputId}
        name={CONSENT_FIELD}
        type="checkbox"
        value="yes"
        required
        defaultChecked={checked}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      <label htmlFor={inputId}>{text}</label>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
