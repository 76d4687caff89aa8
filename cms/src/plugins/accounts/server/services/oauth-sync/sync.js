"use strict";

/**
 * The decisions of POST /api/oauth-sync as plain functions (no Strapi), so they can be unit
 * tested: body validation, what to do for a provider account (its linked user, else the user
 * found by email), and a username for a new user. The Strapi side (database, JWT) is in
 * ./index.js.
 *
 * A provider account is identified by (provider, subject): the provider's own id for the
 * account (OpenID Connect `sub`, GitHub's user id), never by its email. The link to a user is
 * a `plugin::accounts.oauth-identity` row. An email only decides which user a provider
 * account is linked to the first time, and only when both sides proved the address.
 */

const PROVIDER_RE = /^[a-z0-9-]{1,40}$/;
// Pragmatic: one @, no spaces, a dot in the domain. Strapi's user schema also wants >= 6 chars.
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const EMAIL_MAX = 254;
const NAME_MAX = 100;
const SUBJECT_RE = /^[\x20-\x7e]{1,255}$/;
const FIELDS = ["provider", "subject", "email", "emailVerified", "name", "refresh", "authAt"];

const { refusal } = require("../../utils/refusals");

/**
 * Validates the request body. Returns `{ value }` (email trimmed and lower-cased, name trimmed,
 * an empty name dropped, `refresh` false unless true) or `{ error }` (a 400 refusal, code
 * INVALID_BODY, every problem listed in `details.errors`, the shape of Strapi's own validation errors). `subject` is opaque:
 * printable ASCII, 1..255 characters (OpenID Connect's limit), taken as is.
 */
function validateSyncBody(body) {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return {
      error: refusal(
        400,
        "The body must be a JSON object: { provider, subject, email, emailVerified, name?, refresh? }",
        "INVALID_BODY",
        { errors: [{ path: [], message: "must be a JSON object", name: "ValidationError" }] },
      ),
    };
  }
  const errors = [];
  const fail = (path, message) => errors.push({ path: [path], message, name: "ValidationError" });

  for (const key of Object.keys(body)) {
    if (!FIELDS.includes(key)) fail(key, `unknown field "${key}" (allowed: ${FIELDS.join(", ")})`);
  }

  const { provider, subject, email, emailVerified, name, refresh, authAt } = body;
  if (typeof provider !== "string") fail("provider", 'provider is required: a string such as "github"');
  else if (!PROVIDER_RE.test(provider))
    fail("provider", 'provider must match /^[a-z0-9-]{1,40}$/ (e.g. "github", "google", "local-oidc")');
  else if (provider === "local") fail("provider", 'provider "local" is reserved for password accounts');

  if (typeof subject !== "string")
    fail("subject", "subject is required: the provider's id for the account (OpenID Connect sub)");
  else if (!SUBJECT_RE.test(subject) || subject.trim() === "")
    fail("subject", "subject must be 1..255 printable ASCII characters");

  let cleanEmail;
  if (typeof email !== "string") fail("email", "email is required: a string");
  else {
    cleanEmail = email.trim().toLowerCase();
    if (cleanEmail.length < 6 || cleanEmail.length > EMAIL_MAX || !EMAIL_RE.test(cleanEmail)) {
      fail("email", "email must be a valid email address");
    }
  }

  if (typeof emailVerified !== "boolean") fail("emailVerified", "emailVerified is required: true or false");
  if (refresh !== undefined && typeof refresh !== "boolean") fail("refresh", "refresh must be true or false");
  // The provider sign-in a re-sync carries on (ms, from the JWT the callback's sync issued); only with refresh.
  if (authAt !== undefined && authAt !== null) {
    if (refresh !== true) fail("authAt", "authAt is only sent with refresh");
    else if (!Number.isSafeInteger(authAt) || authAt <= 0) fail("authAt", "authAt must be a time in ms");
  }

  let cleanName;
  if (name !== undefined && name !== null) {
    if (typeof name !== "string") fail("name", "name must be a string");
    else if (name.trim().length > NAME_MAX) fail("name", `name must be at most ${NAME_MAX} characters`);
    else cleanName = name.trim() || undefined;
  }

  if (errors.length > 0) {
    const message = `Invalid body: ${errors.map((e) => e.message).join("; ")}`;
    return { error: refusal(400, message, "INVALID_BODY", { errors }) };
  }
  return {
    value: {
      provider,
      subject,
      email: cleanEmail,
      emailVerified,
      refresh: refresh === true,
      ...(refresh === true && Number.isSafeInteger(authAt) && authAt > 0 ? { authAt } : {}),
      ...(cleanName ? { name: cleanName } : {}),
    },
  };
}

const isLocal = (user) => !user.provider || user.provider === "local";

/**
 * Has the address of `existing` (a user found by email) been proven to belong to its owner?
 * Only then may a provider account with that (provider-verified) email be linked to it.
 * - a password (`local`) account: `confirmed`, and only when the users-permissions setting
 *   `email_confirmation` is on; with it off Strapi sets `confirmed: true` at registration
 *   without sending anything, so `confirmed` proves nothing (anyone can register any address);
 * - an account this route created: one of its provider accounts verified this very address;
 *   or, for an account created before identities were recorded (it has none), the same
 *   provider it was created with.
 *
 * @param {{ provider?: string|null, email: string, confirmed?: boolean|null }} existing
 * @param {{ emailConfirmation: boolean, identities: Array<{ email?: string|null, emailVerified?: boolean|null }>,
 *   provider: string }} context
 */
function emailProven(existing, { emailConfirmation, identities, provider }) {
  if (isLocal(existing)) return emailConfirmation === true && existing.confirmed === true;
  const email = String(existing.email || "").toLowerCase();
  if (
    identities.some(
      (identity) => identity.emailVerified === true && String(identity.email || "").toLowerCase() === email,
    )
  ) {
    return true;
  }
  return identities.length === 0 && existing.provider === provider && existing.confirmed === true;
}

/**
 * What to do for a validated request.
 *
 * @param input    the validated body
 * @param found
 *   linked:            the user the provider account (provider, subject) is linked to, or null
 *   existing:          without a link: the user with the request's email, or null
 *   identities:        the provider accounts already linked to `existing`
 *   emailConfirmation: the users-permissions setting `email_confirmation`
 * @returns one of
 *   { action: 'login' }            → the linked user, 200
 *   { action: 'create' }           → nobody has the email: create the user and the link, 201
 *   { action: 'link' }             → both sides proved the email: link to `existing`, 200 linked
 *   { action: 'reject', error }    → 403 blocked; 404 refresh without a link; 409 the email
 *                                    belongs to an account it cannot be linked to
 * The email never leads to a user whose address nobody proved: otherwise whoever registers
 * someone's address first (no confirmation mail) would receive that person's later sign-ins.
 */
function decideSync(input, { linked = null, existing = null, identities = [], emailConfirmation = false } = {}) {
  const blocked = refusal(403, "This account has been blocked", "BLOCKED");
  if (linked) return linked.blocked === true ? { action: "reject", error: blocked } : { action: "login" };
  if (input.refresh === true) {
    return {
      action: "reject",
      error: refusal(404, `No account is linked to this ${input.provider} account`, "NOT_LINKED"),
    };
  }
  if (!existing) return { action: "create" };
  if (existing.blocked === true) return { action: "reject", error: blocked };

  const how = isLocal(existing) ? "Sign in with your password" : `Sign in with ${existing.provider}`;
  const existingProvider = existing.provider || "local";
  if (input.emailVerified !== true) {
    return {
      action: "reject",
      error: refusal(
        409,
        `An account with this email already exists. ${how}, then link ${input.provider} from your account page.`,
        "EMAIL_NOT_VERIFIED",
        { provider: input.provider, existingProvider },
      ),
    };
  }
  if (emailProven(existing, { emailConfirmation, identities, provider: input.provider })) return { action: "link" };
  return {
    action: "reject",
    error: refusal(
      409,
      `An account with this email already exists, and its email address was never confirmed, so ${input.provider} ` +
        `is not linked to it. ${how} instead${isLocal(existing) ? " (or reset the password by email)" : ""}.`,
      "ACCOUNT_EMAIL_NOT_CONFIRMED",
      { provider: input.provider, existingProvider },
    ),
  };
}

/** A database unique-constraint error (SQLite or PostgreSQL), possibly wrapped. */
function isUniqueViolation(error) {
  for (let current = error, depth = 0; current && depth < 5; current = current.cause, depth += 1) {
    if (current.code === "SQLITE_CONSTRAINT_UNIQUE" || current.code === "23505") return true;
    if (/UNIQUE constraint failed|duplicate key value violates unique constraint/i.test(String(current.message || "")))
      return true;
  }
  return false;
}

/** `"Jöhn O'Neil"` → `john-o-neil`; from the name, else the email's local part; 3..30 chars. */
function baseUsername(input) {
  const slug = (value) =>
    String(value || "")
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/[-._]{2,}/g, "-")
      .replace(/^[-._]+|[-._]+$/g, "")
      .slice(0, 30)
      .replace(/[-._]+$/g, "");
  let base = slug(input.name) || slug(String(input.email || "").split("@")[0]) || "user";
  if (base.length < 3) base = `${base}-user`;
  return base;
}

/** Candidates for a unique username, in order: base, base-2 … base-20. */
function usernameCandidates(base) {
  const out = [base];
  for (let n = 2; n <= 20; n += 1) out.push(`${base}-${n}`);
  return out;
}

/** The user as returned to the caller: never a password or a token, whatever the sanitizer did. */
function stripSecrets(user) {
  if (!user || typeof user !== "object") return user;
  const { password, resetPasswordToken, confirmationToken, ...rest } = user;
  return rest;
}

module.exports = {
  validateSyncBody,
  decideSync,
  emailProven,
  isUniqueViolation,
  baseUsername,
  usernameCandidates,
  stripSecrets,
};
