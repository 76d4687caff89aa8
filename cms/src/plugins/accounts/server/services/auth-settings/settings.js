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

/** Strapi's own email-confirmation message (what its bootstrap stores), with the link to the site. */
const confirmMessage = (clientUrl) => `<p>Thank you for registering!</p>
<p>You have to confirm your email address. Please click on the link below.</p>
<p>${clientUrl}/confirm-email?confirmation=<%= CODE %></p>
<p>Thanks.</p>`;

/** The confirmation link in a template: Strapi's `<%= URL %>?confirmation=<%= CODE %>` or an absolute one. */
const CONFIRM_LINK_RE = /(?:<%=\s*URL\s*%>|[^\s"'<>]*)\?confirmation=<%=\s*CODE\s*%>/;

/**
 * The sender when EMAIL_FROM is not set: the site's name at the site's host,
 * `"Acme <no-reply@example.com>"` for CLIENT_URL https://www.example.com (a leading www. dropped).
 */
function defaultSender(siteName, clientUrl) {
  const host = new URL(clientUrl).hostname.replace(/^www\./, "");
  const name = String(siteName ?? "").trim() || "Acme";
  return `${name.replace(/[<>"]/g, "")} <no-reply@${host}>`;
}

/**
 * What to store. The settings fall in two groups (docs/decisions/0020-account-lifecycle.md):
 * - set by an explicit environment variable (CLIENT_URL: the reset and confirmation links;
 *   EMAIL_FROM: both templates' sender; CMS_EMAIL_CONFIRMATION: whether email must be
 *   confirmed): applied on every start, the deployment owns them;
 * - everything else (registration open, unique email, default role, and the values above when
 *   their variable is unset): written once, on the first start (`firstStart`), then the
 *   admin panel owns them: an admin's change survives a restart.
 * Repairs that keep the flows working (a reset or confirmation message without its link, a
 * template without sender or subject) are made on every start.
 *
 * @param {{ advanced: object|null, email: object|null }} stored  plugin store values
 * @param {{ clientUrl: string, clientUrlSet?: boolean, emailFrom: string, emailFromSet?: boolean,
 *   emailConfirmation?: boolean, firstStart?: boolean }} env  normalised CLIENT_URL, the sender
 *   (EMAIL_FROM or defaultSender), CMS_EMAIL_CONFIRMATION (undefined: unset), whether this
 *   database never had the settings applied
 * @returns {{ advanced: object|null, email: object|null, changes: string[] }}
 *   advanced / email: the new value to store, or null when nothing differs.
 */
function planAuthSettings(stored, env) {
  const { clientUrl, emailFrom, emailConfirmation, firstStart = false } = env;
  const clientUrlSet = firstStart || env.clientUrlSet === true;
  const emailFromSet = firstStart || env.emailFromSet === true;
  const changes = [];

  const currentAdvanced = stored.advanced || {};
  const wantedAdvanced = {
    ...(firstStart ? { unique_email: true, allow_register: true, default_role: "authenticated" } : {}),
    ...(firstStart || emailConfirmation !== undefined ? { email_confirmation: emailConfirmation ?? false } : {}),
    ...(clientUrlSet
      ? {
          email_reset_password: `${clientUrl}/reset-password`,
          email_confirmation_redirection: `${clientUrl}/confirm-email?status=confirmed`,
        }
      : {}),
  };
  const advanced = { ...currentAdvanced };
  for (const [key, value] of Object.entries(wantedAdvanced)) {
    if (currentAdvanced[key] !== value) {
      changes.push(`advanced.${key}: ${JSON.stringify(currentAdvanced[key] ?? null)} → ${JSON.stringify(value)}`);
      advanced[key] = value;
    }
  }

  const currentEmail = stored.email || {};
  const email = structuredClone(currentEmail);
  let emailChanged = false;
  const change = (line) => {
    changes.push(line);
    emailChanged = true;
  };
  const reset = (email.reset_password ??= { display: "Email.template.reset_password", icon: "sync", options: {} });
  reset.options ??= {};
  if (typeof reset.options.object !== "string" || !reset.options.object.trim()) {
    reset.options.object = "Reset password";
    change('email.reset_password.object: set to "Reset password"');
  }
  if (typeof reset.options.message !== "string" || !RESET_LINK_RE.test(reset.options.message)) {
    reset.options.message = DEFAULT_RESET_MESSAGE;
    change("email.reset_password.message: had no <%= URL %>?code=<%= TOKEN %> link, reset to the default message");
  }

  const confirm = (email.email_confirmation ??= {
    display: "Email.template.email_confirmation",
    icon: "check-square",
    options: {},
  });
  confirm.options ??= {};
  if (typeof confirm.options.object !== "string" || !confirm.options.object.trim()) {
    confirm.options.object = "Confirm your email address";
    change('email.email_confirmation.object: set to "Confirm your email address"');
  }
  // The link goes to the site's page (which asks the CMS), never to the CMS itself.
  const wantedLink = `${clientUrl}/confirm-email?confirmation=<%= CODE %>`;
  const message = confirm.options.message;
  if (typeof message !== "string" || !CONFIRM_LINK_RE.test(message)) {
    confirm.options.message = confirmMessage(clientUrl);
    change("email.email_confirmation.message: had no ?confirmation=<%= CODE %> link, reset to the default message");
  } else if (CONFIRM_LINK_RE.exec(message)[0] !== wantedLink && (clientUrlSet || /<%=\s*URL\s*%>/.test(message))) {
    confirm.options.message = message.replace(CONFIRM_LINK_RE, wantedLink);
    change(`email.email_confirmation.message: link → ${wantedLink}`);
  }

  const from = parseAddress(emailFrom);
  for (const [template, options] of [
    ["reset_password", reset.options],
    ["email_confirmation", confirm.options],
  ]) {
    const current = options.from;
    const valid = current && typeof current === "object" && current.email && current.name;
    // Strapi sends its template's own sender only when it has a name and an address.
    const wanted = { name: from.name ?? "", email: from.email };
    if ((emailFromSet || !valid) && (current?.name !== wanted.name || current?.email !== wanted.email)) {
      change(`email.${template}.from: ${JSON.stringify(current ?? null)} → ${JSON.stringify(wanted)}`);
      options.from = wanted;
    }
  }

  const advancedChanged = changes.some((c) => c.startsWith("advanced."));
  return { advanced: advancedChanged ? advanced : null, email: emailChanged ? email : null, changes };
}

/** CMS_EMAIL_CONFIRMATION → true / false, or undefined when unset; throws on anything else. */
function parseEmailConfirmation(raw) {
  const value = String(raw ?? "")
    .trim()
    .toLowerCase();
  if (!value) return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw new Error(`[cms] CMS_EMAIL_CONFIRMATION "${raw}" must be "true" or "false".`);
}

module.exports = {
  planAuthSettings,
  normaliseClientUrl,
  parseAddress,
  defaultSender,
  parseEmailConfirmation,
  confirmMessage,
  DEFAULT_RESET_MESSAGE,
  RESET_LINK_RE,
};
