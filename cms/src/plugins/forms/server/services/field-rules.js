"use strict";

/**
 * The CMS's own check of a submission against the form section it names (the site checked it
 * first, with messages for the visitor: app/lib/forms/validate.ts). Only the section's fields
 * are kept, each a string within its type's length; a required one (and the consent, when the
 * section has a consent text) must be there. Anything else is a 400: the site sent what no
 * form of this page asks for.
 */

/** The longest value per field type (the site's limits are the same: app/lib/forms/limits.ts). */
const MAX_LENGTH = { text: 200, email: 254, textarea: 5000, select: 200, checkbox: 3 };
const CONSENT_FIELD = "consent";
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/** `{ ok: true, fields: [{ name, label, value }] }` or `{ ok: false, message }`. */
function checkValues(section, values) {
  if (!values || typeof values !== "object" || Array.isArray(values))
    return { ok: false, message: "values must be an object" };
  const known = new Map((section.fields ?? []).map((field) => [field.name, field]));
  for (const name of Object.keys(values)) {
    if (!known.has(name) && name !== CONSENT_FIELD)
      return { ok: false, message: `unknown field "${name.slice(0, 40)}"` };
  }
  const fields = [];
  for (const field of known.values()) {
    const value = values[field.name];
    if (value !== undefined && typeof value !== "string")
      return { ok: false, message: `${field.name} must be a string` };
    const text = (value ?? "").trim();
    if (text.length > (MAX_LENGTH[field.type] ?? 200)) return { ok: false, message: `${field.name} is too long` };
    if (field.required && text === "") return { ok: false, message: `${field.name} is required` };
    fields.push({ name: field.name, label: field.label, value: text });
  }
  // The mail's Reply-To: the first email field holding an address (the site checked its form).
  const replyTo = fields.find((f) => known.get(f.name).type === "email" && EMAIL.test(f.value));
  if (replyTo) replyTo.replyTo = true;
  if (section.consentText?.trim()) {
    if (values[CONSENT_FIELD] !== "yes") return { ok: false, message: "the consent is required" };
    fields.push({ name: CONSENT_FIELD, label: section.consentText.trim().slice(0, 500), value: "yes" });
  }
  return { ok: true, fields };
}

module.exports = { checkValues, MAX_LENGTH, CONSENT_FIELD };
