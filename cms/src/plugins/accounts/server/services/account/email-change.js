"use strict";

const { createHash, randomBytes } = require("node:crypto");

/**
 * The pure parts of the change of email (docs/decisions/0020-account-lifecycle.md): input
 * checks, the token and its hash, the state of a pending change, the link and the mails.
 */

/** How long the link of the confirmation mail works. */
const EMAIL_CHANGE_TTL_MS = 60 * 60 * 1000;
const EMAIL_MAX = 254;
// As the OAuth sync's check (../oauth-sync/sync.js): one @, no spaces, a dot in the domain.
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const TOKEN_RE = /^[0-9a-f]{64}$/;
const LOCALE_RE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/;

/** The new address, trimmed and lower-cased, or an error message. */
function checkNewEmail(value) {
  if (typeof value !== "string") return { error: "email must be a string" };
  const email = value.trim().toLowerCase();
  if (email.length < 6 || email.length > EMAIL_MAX || !EMAIL_RE.test(email)) {
    return { error: "email must be a valid email address" };
  }
  return { email };
}

/** A token as the mail's link carries it (64 hex characters), or null. */
function checkToken(value) {
  return typeof value === "string" && TOKEN_RE.test(value) ? value : null;
}

/** The locale prefix of the site's confirm page (`de`), or null for the default locale / anything unusable. */
function checkLocale(value) {
  return typeof value === "string" && LOCALE_RE.test(value) ? value : null;
}

/** A new random token (32 bytes, hex) and what is stored of it. */
function newToken() {
  const token = randomBytes(32).toString("hex");
  return { token, tokenHash: hashToken(token) };
}

function hashToken(token) {
  return createHash("sha256").update(token).digest("hex");
}

/** A stored datetime (ISO string, Date, ms) in ms, or null. */
function timeMs(value) {
  if (value === null || value === undefined || value === "") return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(String(value));
  return Number.isFinite(ms) ? ms : null;
}

/** "ok", or "expired" (past its expiry, or no readable expiry). */
function pendingState(expiresAt, nowMs) {
  const expires = timeMs(expiresAt);
  return expires !== null && expires > nowMs ? "ok" : "expired";
}

/** The confirmation link: the site's page (the default locale unprefixed), never the CMS. */
function confirmLink(clientUrl, token, locale) {
  const prefix = locale ? `/${locale}` : "";
  return `${clientUrl}${prefix}/confirm-email-change?token=${token}`;
}

const escapeHtml = (value) =>
  String(value).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );

function mail(to, subject, paragraphs) {
  return {
    to,
    subject,
    text: `${paragraphs.join("\n\n")}\n`,
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n"),
  };
}

/**
 * The mails of a request. `taken`: the new address belongs to another account; its owner is
 * told that someone tried, and nothing else happens. The old address is told in both cases
 * (without a link), so its mailbox does not tell the requester whether the new one is taken.
 */
function emailChangeMails({ siteName, clientUrl, oldEmail, newEmail, link, taken }) {
  const site = siteName || "Acme";
  const toOld = mail(oldEmail, `${site}: a change of your email address was requested`, [
    `Someone signed in to your ${site} account asked to change its email address to ${newEmail}.`,
    "Nothing changes until the link we sent to that address is opened and confirmed (within an hour).",
    `If this was not you, sign in at ${clientUrl}, change your password and sign out everywhere.`,
  ]);
  const toNew = taken
    ? mail(newEmail, `${site}: someone tried to use this email address`, [
        `Someone asked to move another ${site} account to this email address (${newEmail}).`,
        "This address already belongs to an account, so nothing was changed.",
        `If this was you, sign in to that account instead, or reset its password at ${clientUrl}/forgot-password.`,
      ])
    : mail(newEmail, `${site}: confirm your new email address`, [
        `Confirm that ${newEmail} is the new email address of your ${site} account by opening this link ` +
          "and pressing the button:",
        link,
        "The link works once, for an hour. If you did not ask for this, ignore this mail: nothing changes.",
      ]);
  return [toOld, toNew];
}

module.exports = {
  EMAIL_CHANGE_TTL_MS,
  checkNewEmail,
  checkToken,
  checkLocale,
  newToken,
  hashToken,
  pendingState,
  confirmLink,
  emailChangeMails,
};
