"use strict";

/**
 * users-permissions settings that are configuration, not content: what they must be, and the
 * smallest change to the stored values that gets them there (pure, unit-tested).
 */

const RESET_LINK_RE = /<%=\s*URL\s*%>\?code=<%=\s*TOKEN\s*%>/;

/** Strapi's own reset-password message (what its bootstrap stores on a fresh database). */
const DEFAULT_RESET_MESSAGE = `<p>We heard that you lost your password. Sorry about that!</p>
<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>
<p>Thanks.</p>`;

/** CLIENT_URL → `http(s)://host[:port][/base]` without a trailing slash; throws when unusable. */
function normaliseClientUrl(raw) {
  const value = String(raw ?? "").trim() || "http://localhost:3000";
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`[cms] CLIENT_URL "${value}" is not a valid URL (expected e.g. https://www.example.com).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`[cms] CLIENT_URL "${value}" must be an http(s) URL.`);
  }
  if (url.search || url.hash) throw new Error(`[cms] CLIENT_URL "${value}" must not have a query or a fragment.`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** `"Acme <no-reply@acme.test>"` → `{ name: 'Acme', email: 'no-reply@acme.test' }`; `"x@y.z"` → `{ email }`. */
function parseAddress(raw) {
  const value = String(raw ?? "").trim();
  if (!value) return null;
  const match = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(value);
  if (match) return { name: match[1].replace(/^"|"$/g, "").trim() || undefined, email: match[2] };
  if (/^[^\s@<>]+@[^\s@<>]+$/.test(value)) return { email: value };
  throw new Error(
    `[cms] EMAIL_FROM "${value}" is not an address (use "name@example.com" or "Name <name@example.com>").`,
  );
}

/**
 * @param {{ advanced: object|null, email: object|null }} stored  plugin store values
 * @param {{ clientUrl: string, emailFrom?: string }} env          normalised CLIENT_URL, raw EMAIL_FROM
 * @returns {{ advanced: object|null, email: object|null, changes: string[] }}
 *   advanced / email: the new value to store, or null when nothing differs.
 */
function planAuthSettings(stored, { clientUrl, emailFrom }) {
  const changes = [];

  const currentAdvanced = stored.advanced || {};
  const wantedAdvanced = {
    unique_email: true,
    allow_register: true,
    email_confirmation: false,
    default_role: "authenticated",
    email_reset_password: `${clientUrl}/reset-password`,
  };
  const advanced = { ...currentAdvanced };
  for (const [key, value] of Object.entries(wantedAdvanced)) {
    if (currentAdvanced[key] !== value) {
      changes.push(`advanced.${key}: ${JSON.stringify(currentAdvanced[key])} → ${JSON.stringify(value)}`);
      advanced[key] = value;
    }
  }
  for (const key of ["email_confirmation_redirection"]) {
    if (!(key in advanced)) advanced[key] = null;
  }

  const currentEmail = stored.email || {};
  const email = structuredClone(currentEmail);
  let emailChanged = false;
  const reset = (email.reset_password ??= { display: "Email.template.reset_password", icon: "sync", options: {} });
  reset.options ??= {};
  if (typeof reset.options.object !== "string" || !reset.options.object.trim()) {
    reset.options.object = "Reset password";
    changes.push('email.reset_password.object: set to "Reset password"');
    emailChanged = true;
  }
  if (typeof reset.options.message !== "string" || !RESET_LINK_RE.test(reset.options.message)) {
    reset.options.message = DEFAULT_RESET_MESSAGE;
    changes.push(
      "email.reset_password.message: had no <%= URL %>?code=<%= TOKEN %> link, reset to the default message",
    );
    emailChanged = true;
  }
  if (!reset.options.from || typeof reset.options.from !== "object") {
    // Empty: the provider's defaultFrom (EMAIL_FROM) is used. Without `from` forgot-password throws.
    reset.options.from = { name: "", email: "" };
    changes.push("email.reset_password.from: missing, set to empty (the provider default sender)");
    emailChanged = true;
  }

  const from = parseAddress(emailFrom);
  if (from) {
    for (const template of ["reset_password", "email_confirmation"]) {
      const options = email[template]?.options;
      if (!options) continue;
      const wanted = { name: from.name ?? options.from?.name ?? "", email: from.email };
      if (options.from?.name !== wanted.name || options.from?.email !== wanted.email) {
        changes.push(`email.${template}.from: ${JSON.stringify(options.from ?? null)} → ${JSON.stringify(wanted)}`);
        options.from = wanted;
        emailChanged = true;
      }
    }
  }

  const advancedChanged = changes.some((c) => c.startsWith("advanced."));
  return { advanced: advancedChanged ? advanced : null, email: emailChanged ? email : null, changes };
}

module.exports = { planAuthSettings, normaliseClientUrl, parseAddress, DEFAULT_RESET_MESSAGE, RESET_LINK_RE };
