'use strict';

/**
 * The decisions of POST /api/oauth-sync as plain functions (no Strapi), so they can be unit
 * tested: body validation, what to do with the user found by email, and a username for a new
 * user. The Strapi side (database, JWT) is in ../services/oauth-sync.js.
 */

const PROVIDER_RE = /^[a-z0-9-]{1,40}$/;
// Pragmatic: one @, no spaces, a dot in the domain. Strapi's user schema also wants >= 6 chars.
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const EMAIL_MAX = 254;
const NAME_MAX = 100;
const FIELDS = ['provider', 'email', 'emailVerified', 'name'];

/** An error in Strapi's error body shape, with the HTTP status it goes out with. */
function httpError(status, name, message, details = {}) {
  return { status, body: { data: null, error: { status, name, message, details } } };
}

/**
 * Validates the request body. Returns `{ value }` (email trimmed and lower-cased, name trimmed,
 * an empty name dropped) or `{ error }` (400, every problem listed in `details.errors`, the same
 * shape as Strapi's own validation errors).
 */
function validateSyncBody(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return {
      error: httpError(400, 'ValidationError', 'The body must be a JSON object: { provider, email, emailVerified, name? }', {
        errors: [{ path: [], message: 'must be a JSON object', name: 'ValidationError' }],
      }),
    };
  }
  const errors = [];
  const fail = (path, message) => errors.push({ path: [path], message, name: 'ValidationError' });

  for (const key of Object.keys(body)) {
    if (!FIELDS.includes(key)) fail(key, `unknown field "${key}" (allowed: ${FIELDS.join(', ')})`);
  }

  const { provider, email, emailVerified, name } = body;
  if (typeof provider !== 'string') fail('provider', 'provider is required: a string such as "github"');
  else if (!PROVIDER_RE.test(provider)) fail('provider', 'provider must match /^[a-z0-9-]{1,40}$/ (e.g. "github", "google", "local-oidc")');
  else if (provider === 'local') fail('provider', 'provider "local" is reserved for password accounts');

  let cleanEmail;
  if (typeof email !== 'string') fail('email', 'email is required: a string');
  else {
    cleanEmail = email.trim().toLowerCase();
    if (cleanEmail.length < 6 || cleanEmail.length > EMAIL_MAX || !EMAIL_RE.test(cleanEmail)) {
      fail('email', 'email must be a valid email address');
    }
  }

  if (typeof emailVerified !== 'boolean') fail('emailVerified', 'emailVerified is required: true or false');

  let cleanName;
  if (name !== undefined && name !== null) {
    if (typeof name !== 'string') fail('name', 'name must be a string');
    else if (name.trim().length > NAME_MAX) fail('name', `name must be at most ${NAME_MAX} characters`);
    else cleanName = name.trim() || undefined;
  }

  if (errors.length > 0) {
    const message = `Invalid body: ${errors.map((e) => e.message).join('; ')}`;
    return { error: httpError(400, 'ValidationError', message, { errors }) };
  }
  return { value: { provider, email: cleanEmail, emailVerified, ...(cleanName ? { name: cleanName } : {}) } };
}

/**
 * What to do for a validated request, given the user found by email (or null).
 *
 * @returns one of
 *   { action: 'create' }                        → create the user, 201
 *   { action: 'login',  confirm: boolean }      → same provider, 200
 *   { action: 'link',   confirm: boolean }      → other provider, email verified, 200 linked
 *   { action: 'reject', error }                 → 403 blocked, 409 unverified email
 * `confirm`: the user is not confirmed yet but the provider vouches for the email, so mark it
 * confirmed (an unconfirmed user's JWT is refused by /users/me).
 */
function decideSync(existing, input) {
  if (!existing) return { action: 'create' };
  if (existing.blocked === true) {
    return { action: 'reject', error: httpError(403, 'ForbiddenError', 'This account has been blocked', { reason: 'blocked' }) };
  }
  const confirm = existing.confirmed !== true && input.emailVerified === true;
  if (existing.provider === input.provider) return { action: 'login', confirm };
  if (input.emailVerified === true) return { action: 'link', confirm };

  const how =
    !existing.provider || existing.provider === 'local'
      ? 'Sign in with your password'
      : `Sign in with ${existing.provider}`;
  return {
    action: 'reject',
    error: httpError(
      409,
      'ConflictError',
      `An account with this email already exists. ${how}, then link ${input.provider} from your account page.`,
      { reason: 'email_not_verified', provider: input.provider, existingProvider: existing.provider || 'local' },
    ),
  };
}

/** `"Jöhn O'Neil"` → `john-o-neil`; from the name, else the email's local part; 3..30 chars. */
function baseUsername(input) {
  const slug = (value) =>
    String(value || '')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/[-._]{2,}/g, '-')
      .replace(/^[-._]+|[-._]+$/g, '')
      .slice(0, 30)
      .replace(/[-._]+$/g, '');
  let base = slug(input.name) || slug(String(input.email || '').split('@')[0]) || 'user';
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
  if (!user || typeof user !== 'object') return user;
  const { password, resetPasswordToken, confirmationToken, ...rest } = user;
  return rest;
}

module.exports = { validateSyncBody, decideSync, baseUsername, usernameCandidates, stripSecrets, httpError };
