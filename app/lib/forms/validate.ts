import type { FormSection } from "../../components/sections/types.ts";
import { CONSENT_FIELD, FIELD_MAX_LENGTH, FIELD_PREFIX } from "./form-fields.ts";
import { t } from "../i18n/messages.ts";

/** What a visitor typed, by field name (the consent as CONSENT_FIELD), and a message per wrong field. */
export interface FormCheck {
  values: Record<string, string>;
  errors: Record<string, string>;
}

/** The same check the browser's `type=email` makes, kept simple: something@host.tld, no spaces. */
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/**
 * Checks a post against the form section's fields: required ones filled, an email an address, a
 * choice one of the options, nothing longer than its type allows, the consent given when the
 * section asks for one. Messages in the page's locale, or the field's own (the editor's).
 * Only the section's fields are read: anything else posted is ignored.
 */
export function checkForm(section: FormSection, posted: Record<string, string>, locale: string): FormCheck {
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const field of section.fields) {
    const raw = posted[`${FIELD_PREFIX}${field.name}`] ?? "";
    const value = field.type === "checkbox" ? (raw === "yes" ? "yes" : "") : raw.trim();
    values[field.name] = value.slice(0, FIELD_MAX_LENGTH[field.type]);
    const problem =
      value === ""
        ? field.required
          ? t(locale, "form.error.required")
          : null
        : value.length > FIELD_MAX_LENGTH[field.type]
          ? t(locale, "form.error.tooLong", { max: FIELD_MAX_LENGTH[field.type] })
          : field.type === "email" && !EMAIL.test(value)
            ? t(locale, "form.error.email")
            : field.type === "select" && !field.options.includes(value)
              ? t(locale, "form.error.choice")
              : null;
    if (problem) errors[field.name] = field.errorMessage ?? problem;
  }
  if (section.consentText) {
    values[CONSENT_FIELD] = posted[CONSENT_FIELD] === "yes" ? "yes" : "";
    if (!values[CONSENT_FIELD]) errors[CONSENT_FIELD] = t(locale, "form.error.consent");
  }
  return { values, errors };
}
