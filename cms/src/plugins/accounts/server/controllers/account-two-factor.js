"use strict";

const { callerOf } = require("../../account-sessions/lib/caller");
const { createKeyedLock } = require("../../oauth-sync/lib/keyed-lock");
const { END_SESSIONS, validAfterMs } = require("../../../extensions/users-permissions/sessions-valid-after");
const { TWO_FACTOR, TWO_FACTOR_WRITE } = require("../../../extensions/users-permissions/two-factor-fields");
const { newSecret, base32Decode, otpauthUri, totpCodeOf, matchingStep } = require("../lib/totp");
const { twoFactorKeys, seal, open } = require("../lib/secret-box");
const {
  generateRecoveryCodes,
  normaliseRecoveryCode,
  hashRecoveryCode,
  storedHashes,
} = require("../lib/recovery-codes");
const { precheck, checkSecondFactor, failureChanges } = require("../lib/second-factor");
const { isPendingPayload, verifiedTokensWith } = require("../../../extensions/users-permissions/two-factor-sign-in");

const USER_UID = "plugin::users-permissions.user";
const DEFAULT_ISSUER = "Acme";
const STATE_FIELDS = ["id", "email", "password", ...Object.values(TWO_FACTOR)];

const NAMES = { 400: "ValidationError", 409: "ConflictError", 429: "RateLimitError", 500: "ApplicationError" };
const MESSAGES = {
  PASSWORD_MISSING: "Enter your current password.",
  INVALID_PASSWORD: "The password is not correct.",
  NO_PASSWORD:
    "This account has no password (it signs in with a provider): two-factor authentication is for accounts " +
    "with a password.",
  ALREADY_ENABLED: "Two-factor authentication is already on.",
  NOT_ENABLED: "Two-factor authentication is not on.",
  NO_PENDING_SETUP: "Start the set-up first (with your password): no code is expected yet.",
  ENABLE_CODE_GARBLED: "Enter the 6-digit code your authenticator app shows.",
  CODE_GARBLED: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
  INVALID_CODE: "That code is not correct. Check the time on your device, or use a recovery code.",
  CODE_ALREADY_USED: "That code was already used. Wait for the next code in your app.",
  TWO_FACTOR_UNREADABLE: "The second factor of this account cannot be read on this server. Contact the site.",
};

function tooManyMessage(seconds) {
  const minutes = Math.ceil(seconds / 60);
  return `Too many wrong codes. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** Sends Strapi's error shape with `details.code` (and extra details). */
function refuse(ctx, status, code, message, details = {}) {
  ctx.status = status;
  ctx.body = {
    data: null,
    error: { status, name: NAMES[status] ?? "ApplicationError", message, details: { code, ...details } },
  };
  if (details.retryAfterSeconds) ctx.set("Retry-After", String(details.retryAfterSeconds));
}

/** The request's JSON body as an object ({} for anything else). */
const bodyOf = (ctx) => {
  const body = ctx.request.body;
  return body && typeof body === "object" && !Array.isArray(body) ? body : {};
};

module.exports = ({ strapi }) => {
  // Read once, at start: a malformed TWO_FACTOR_ENCRYPTION_KEY stops the CMS with a clear message.
  const keys = twoFactorKeys(process.env);
  // The checks of one user run one after the other (read, decide, write): two requests with the
  // same code, or many wrong ones at once, cannot both pass the replay check or the count.
  const perUser = createKeyedLock();
  const users = () => strapi.db.query(USER_UID);
  const jwt = () => strapi.plugin("users-permissions").service("jwt");
  /**
   * The JWT's user. `allowPending`: a password step's JWT still waiting for its code (two-factor-sign-in.js)
   * is accepted too: the state and the code check are what it is for; every other route refuses it.
   */
  const caller = (ctx, allowPending = false) =>
    callerOf(ctx, {
      getToken: (context) => {
        const [scheme, token, ...rest] = String(context.request.header.authorization ?? "").split(/\s+/);
        if (scheme.toLowerCase() !== "bearer" || !token || rest.length > 0) return null;
        return jwt().verify(token, { allowTwoFactorPending: allowPending });
      },
      findUser: (id) => users().findOne({ where: { id }, select: ["id", "blocked"] }),
    });
  const load = (id) => users().findOne({ where: { id }, select: STATE_FIELDS });
  const store = (id, fields, extra = {}) =>
    users().update({ where: { id }, data: { ...extra, [TWO_FACTOR_WRITE]: fields } });
  const context = (id, field) => `user:${id}:${field}`;

  /** The base32 secret in a sealed field, or null (logged) when it does not open. */
  function openSecret(user, field) {
    try {
      const secret = open(keys.encryption, user[field], context(user.id, field));
      base32Decode(secret);
      return secret;
    } catch (error) {
      strapi.log.error(
        `[account-two-factor] user ${user.id}: the sealed ${field} does not open (${error.message}); ` +
          "was the key changed (TWO_FACTOR_ENCRYPTION_KEY, else ENCRYPTION_KEY)?",
      );
      return null;
    }
  }

  /** The stored state in the form ../lib/second-factor.js reads; `key` null when unreadable. */
  function stateOf(user) {
    const secret = openSecret(user, TWO_FACTOR.secret);
    return {
      userId: user.id,
      key: secret === null ? null : base32Decode(secret),
      recoveryHashes: user[TWO_FACTOR.recoveryCodes],
      lastStep: Number.isInteger(user[TWO_FACTOR.lastStep]) ? user[TWO_FACTOR.lastStep] : null,
      failures: Number(user[TWO_FACTOR.failures]) || 0,
      lockedUntilMs: validAfterMs(user[TWO_FACTOR.lockedUntil]),
    };
  }

  /** The fields to store for a check's changes. */
  function fieldsOf(changes) {
    const fields = {};
    if ("failures" in changes) fields[TWO_FACTOR.failures] = changes.failures;
    if ("lockedUntilMs" in changes) {
      fields[TWO_FACTOR.lockedUntil] = changes.lockedUntilMs === null ? null : new Date(changes.lockedUntilMs);
    }
    if ("lastStep" in changes) fields[TWO_FACTOR.lastStep] = changes.lastStep;
    if ("recoveryHashes" in changes) fields[TWO_FACTOR.recoveryCodes] = changes.recoveryHashes;
    return fields;
  }

  /**
   * Checks the body's code for an enabled user; on refusal answers and returns null, else stores
   * the check's changes with `more(check)` and returns the check. `before(state, nowMs)` runs
   * after the input and lock checks, before the code is compared: true means it refused.
   */
  async function checkCode(ctx, user, { before, more = () => ({}) } = {}) {
    const state = stateOf(user);
    if (state.key === null) {
      refuse(ctx, 500, "TWO_FACTOR_UNREADABLE", MESSAGES.TWO_FACTOR_UNREADABLE);
      return null;
    }
    const nowMs = Date.now();
    const input = bodyOf(ctx).code;
    const refused = precheck(input, state, nowMs);
    if (!refused && before && (await before(state, nowMs))) return null;
    const check = refused ?? checkSecondFactor(input, state, { recoveryKey: keys.recovery, nowMs });
    if (!check.ok) {
      const { status, code, retryAfterSeconds, garbled } = check.error;
      if (Object.keys(check.changes).length > 0) await store(user.id, fieldsOf(check.changes));
      if (status === 429) refuse(ctx, 429, code, tooManyMessage(retryAfterSeconds), { retryAfterSeconds });
      else refuse(ctx, status, code, garbled ? MESSAGES.CODE_GARBLED : MESSAGES[code]);
      return null;
    }
    await store(user.id, { ...fieldsOf(check.changes), ...more(check) });
    return check;
  }

  /** Runs `handler(ctx, user, payload)` for the JWT's user, one request of that user at a time. */
  const forCaller =
    (handler, { allowPending = false } = {}) =>
    async (ctx) => {
      const { answer, user: who, payload } = await caller(ctx, allowPending);
      if (answer) return Object.assign(ctx, answer);
      return perUser.run(String(who.id), async () => {
        const user = await load(who.id);
        if (!user) return Object.assign(ctx, (await caller(ctx, allowPending)).answer);
        return handler(ctx, user, payload);
      });
    };

  /** Whether the body's password is the user's; answers the refusal when not. */
  async function passwordChecked(ctx, user) {
    if (!user.password) {
      refuse(ctx, 400, "NO_PASSWORD", MESSAGES.NO_PASSWORD);
      return false;
    }
    const password = bodyOf(ctx).password;
    if (typeof password !== "string" || password.length === 0) {
      refuse(ctx, 400, "INVALID_PASSWORD", MESSAGES.PASSWORD_MISSING);
      return false;
    }
    const userService = strapi.plugin("users-permissions").service("user");
    if (!(await userService.validatePassword(password, user.password))) {
      refuse(ctx, 400, "INVALID_PASSWORD", MESSAGES.INVALID_PASSWORD);
      return false;
    }
    return true;
  }

  /** New recovery codes: the plain codes (shown once) and the fields storing their hashes only. */
  function freshRecoveryCodes(user) {
    const recoveryCodes = generateRecoveryCodes();
    const hashes = recoveryCodes.map((code) => hashRecoveryCode(keys.recovery, user.id, normaliseRecoveryCode(code)));
    return { recoveryCodes, fields: { [TWO_FACTOR.recoveryCodes]: hashes } };
  }

  const enabled = (user) => Boolean(user[TWO_FACTOR.enabled]);

  return {
    status: forCaller(
      async (ctx, user) => {
        const on = enabled(user);
        ctx.body = { enabled: on, recoveryCodesLeft: on ? storedHashes(user[TWO_FACTOR.recoveryCodes]).length : 0 };
      },
      { allowPending: true },
    ),

    setup: forCaller(async (ctx, user) => {
      if (!user.password) return refuse(ctx, 400, "NO_PASSWORD", MESSAGES.NO_PASSWORD);
      if (enabled(user)) return refuse(ctx, 409, "ALREADY_ENABLED", MESSAGES.ALREADY_ENABLED);
      if (!(await passwordChecked(ctx, user))) return;
      const secret = newSecret();
      const field = TWO_FACTOR.pendingSecret;
      await store(user.id, { [field]: seal(keys.encryption, secret, context(user.id, field)) });
      const issuer = (process.env.SITE_NAME ?? "").trim() || DEFAULT_ISSUER;
      ctx.body = { secret, uri: otpauthUri({ issuer, account: user.email, secret }) };
    }),

    enable: forCaller(async (ctx, user) => {
      if (enabled(user)) return refuse(ctx, 409, "ALREADY_ENABLED", MESSAGES.ALREADY_ENABLED);
      if (!user[TWO_FACTOR.pendingSecret]) return refuse(ctx, 400, "NO_PENDING_SETUP", MESSAGES.NO_PENDING_SETUP);
      const code = totpCodeOf(bodyOf(ctx).code);
      if (code === null) return refuse(ctx, 400, "INVALID_CODE", MESSAGES.ENABLE_CODE_GARBLED);
      const pending = openSecret(user, TWO_FACTOR.pendingSecret);
      if (pending === null) return refuse(ctx, 500, "TWO_FACTOR_UNREADABLE", MESSAGES.TWO_FACTOR_UNREADABLE);
      const step = matchingStep(base32Decode(pending), code, Date.now());
      if (step === null) return refuse(ctx, 400, "INVALID_CODE", MESSAGES.INVALID_CODE);
      const { recoveryCodes, fields } = freshRecoveryCodes(user);
      // A privilege change: every session of the user so far ends (END_SESSIONS, as "sign out
      // everywhere"), this one too; the JWT in the answer, issued after, starts the new one.
      await store(
        user.id,
        {
          ...fields,
          [TWO_FACTOR.enabled]: true,
          [TWO_FACTOR.secret]: seal(keys.encryption, pending, context(user.id, TWO_FACTOR.secret)),
          [TWO_FACTOR.pendingSecret]: null,
          [TWO_FACTOR.lastStep]: step,
          [TWO_FACTOR.failures]: 0,
          [TWO_FACTOR.lockedUntil]: null,
        },
        { [END_SESSIONS]: true },
      );
      ctx.body = { recoveryCodes, jwt: jwt().issue({ id: user.id }) };
    }),

    verify: forCaller(
      async (ctx, user, payload) => {
        if (!enabled(user)) return refuse(ctx, 409, "NOT_ENABLED", MESSAGES.NOT_ENABLED);
        // A right code makes the password step's JWT a whole session (two-factor-sign-in.js).
        const check = await checkCode(ctx, user, {
          more: () =>
            isPendingPayload(payload)
              ? {
                  [TWO_FACTOR.verifiedTokens]: verifiedTokensWith(payload, user[TWO_FACTOR.verifiedTokens], Date.now()),
                }
              : {},
        });
        if (!check) return;
        ctx.body = { method: check.method, recoveryCodesLeft: check.recoveryCodesLeft };
      },
      { allowPending: true },
    ),

    disable: forCaller(async (ctx, user) => {
      if (!enabled(user)) return refuse(ctx, 409, "NOT_ENABLED", MESSAGES.NOT_ENABLED);
      const password = bodyOf(ctx).password;
      if (typeof password !== "string" || password.length === 0) {
        return refuse(ctx, 400, "INVALID_PASSWORD", MESSAGES.PASSWORD_MISSING);
      }
      const check = await checkCode(ctx, user, {
        // A wrong password counts as a failed attempt too: this route must not become a way
        // around the limit on codes, nor an unlimited password oracle.
        before: async (state, nowMs) => {
          if (await passwordChecked(ctx, user)) return false;
          await store(user.id, fieldsOf(failureChanges(state, nowMs)));
          return true;
        },
        more: () => ({
          [TWO_FACTOR.enabled]: false,
          [TWO_FACTOR.secret]: null,
          [TWO_FACTOR.pendingSecret]: null,
          [TWO_FACTOR.recoveryCodes]: null,
          [TWO_FACTOR.lastStep]: null,
          [TWO_FACTOR.failures]: 0,
          [TWO_FACTOR.lockedUntil]: null,
        }),
      });
      if (!check) return;
      ctx.body = { ok: true };
    }),

    regenerateRecoveryCodes: forCaller(async (ctx, user) => {
      if (!enabled(user)) return refuse(ctx, 409, "NOT_ENABLED", MESSAGES.NOT_ENABLED);
      let recoveryCodes = [];
      const check = await checkCode(ctx, user, {
        more: () => {
          const fresh = freshRecoveryCodes(user);
          recoveryCodes = fresh.recoveryCodes;
          return fresh.fields;
        },
      });
      if (!check) return;
      ctx.body = { recoveryCodes };
    }),
  };
};
