"use strict";

const { createClusterLock } = require("../utils/cluster-lock");
const { unauthorized, refusalError } = require("../utils/refusals");
const { tokenPayload } = require("../services/account/session-token");
const { END_SESSIONS, dateMs } = require("../users-permissions/session-check");
const { TWO_FACTOR, TWO_FACTOR_WRITE } = require("../users-permissions/two-factor-fields");
const { newSecret, base32Decode, otpauthUri, totpCodeOf, matchingStep } = require("../services/two-factor/totp");
const { twoFactorKeys, seal, open } = require("../services/two-factor/secret-box");
const {
  generateRecoveryCodes,
  normaliseRecoveryCode,
  hashRecoveryCode,
  storedHashes,
} = require("../services/two-factor/recovery-codes");
const { precheck, checkSecondFactor, failureChanges } = require("../services/two-factor/second-factor");
const { completeSecondFactor } = require("../users-permissions/two-factor-sign-in");

const USER_UID = "plugin::users-permissions.user";
const DEFAULT_ISSUER = "Acme";
const STATE_FIELDS = ["id", "email", "password", ...Object.values(TWO_FACTOR)];

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

/** Throws the refusal of `status` with its `details.code` (../utils/refusals.js); 429 with Retry-After. */
function refuse(ctx, status, code, message, details = {}) {
  if (details.retryAfterSeconds) ctx.set("Retry-After", String(details.retryAfterSeconds));
  throw refusalError(status, message, code, details);
}

/** The request's JSON body as an object ({} for anything else). */
const bodyOf = (ctx) => {
  const body = ctx.request.body;
  return body && typeof body === "object" && !Array.isArray(body) ? body : {};
};

/**
 * The signed-in user's own second factor (routes/content-api: /api/account-two-factor/*). Strapi
 * authenticates every route (ctx.state.user) and checks the Authenticated role's permission; the
 * state and the code check also take the JWT of a password step still waiting for its code
 * (../strategies/two-factor-step.js).
 */
module.exports = ({ strapi }) => {
  const config = strapi.config.get("plugin::accounts");
  // Read once, at start (the plugin's config validator already refused a malformed key).
  const keys = twoFactorKeys(config);
  const issuer = config.siteName || DEFAULT_ISSUER;
  // The checks of one user run one after the other (read, decide, write), on every instance
  // sharing the database (../utils/cluster-lock.js): two requests with the same code, or many
  // wrong ones at once, cannot both pass the replay check or the count, whichever instance each reaches.
  const perUser = createClusterLock(strapi, "two-factor");
  const users = () => strapi.db.query(USER_UID);
  const jwt = () => strapi.plugin("users-permissions").service("jwt");
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
      lockedUntilMs: dateMs(user[TWO_FACTOR.lockedUntil]),
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
   * Checks the body's code for an enabled user; on refusal stores what the refusal changes (the
   * failure count) and throws it, else stores the check's changes with `more(check)` and returns
   * the check. `before(state, nowMs)` runs after the input and lock checks, before the code is
   * compared; it throws to refuse.
   */
  async function checkCode(ctx, user, { before, more = () => ({}) } = {}) {
    const state = stateOf(user);
    if (state.key === null) refuse(ctx, 500, "TWO_FACTOR_UNREADABLE", MESSAGES.TWO_FACTOR_UNREADABLE);
    const nowMs = Date.now();
    const input = bodyOf(ctx).code;
    const refused = precheck(input, state, nowMs);
    if (!refused && before) await before(state, nowMs);
    const check = refused ?? checkSecondFactor(input, state, { recoveryKey: keys.recovery, nowMs });
    if (!check.ok) {
      const { status, code, retryAfterSeconds, garbled } = check.error;
      if (Object.keys(check.changes).length > 0) await store(user.id, fieldsOf(check.changes));
      if (status === 429) refuse(ctx, 429, code, tooManyMessage(retryAfterSeconds), { retryAfterSeconds });
      refuse(ctx, status, code, garbled ? MESSAGES.CODE_GARBLED : MESSAGES[code]);
    }
    await store(user.id, { ...fieldsOf(check.changes), ...more(check) });
    return check;
  }

  /**
   * Runs `handler(ctx, user, payload)` for the signed-in user (Strapi's auth: ctx.state.user), one
   * request of that user at a time. `allowPending`: the route takes a password step's JWT still
   * waiting for its code (two-factor-sign-in.js) too; the route's auth strategy has let it in.
   */
  const forCaller =
    (handler, { allowPending = false } = {}) =>
    async (ctx) => {
      const who = ctx.state.user;
      const payload = await tokenPayload(jwt(), ctx, { allowTwoFactorPending: allowPending });
      if (!who || !payload || String(payload.id) !== String(who.id)) {
        throw unauthorized("Missing or invalid credentials", "INVALID_SESSION");
      }
      return perUser.run(String(who.id), async () => {
        const user = await load(who.id);
        if (!user) throw unauthorized("Missing or invalid credentials", "INVALID_SESSION");
        return handler(ctx, user, payload);
      });
    };

  /** What is wrong with the body's password for this user (`{ code, message }`), or null when it is the user's. */
  async function passwordProblem(ctx, user) {
    if (!user.password) return { code: "NO_PASSWORD", message: MESSAGES.NO_PASSWORD };
    const password = bodyOf(ctx).password;
    if (typeof password !== "string" || password.length === 0) {
      return { code: "INVALID_PASSWORD", message: MESSAGES.PASSWORD_MISSING };
    }
    const userService = strapi.plugin("users-permissions").service("user");
    if (!(await userService.validatePassword(password, user.password))) {
      return { code: "INVALID_PASSWORD", message: MESSAGES.INVALID_PASSWORD };
    }
    return null;
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
      const problem = await passwordProblem(ctx, user);
      if (problem) return refuse(ctx, 400, problem.code, problem.message);
      const secret = newSecret();
      const field = TWO_FACTOR.pendingSecret;
      await store(user.id, { [field]: seal(keys.encryption, secret, context(user.id, field)) });
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
      ctx.body = { recoveryCodes, jwt: await jwt().issue({ id: user.id }) };
    }),

    verify: forCaller(
      async (ctx, user, payload) => {
        if (!enabled(user)) return refuse(ctx, 409, "NOT_ENABLED", MESSAGES.NOT_ENABLED);
        const check = await checkCode(ctx, user);
        // A right code makes the password step's session a whole one (two-factor-sign-in.js).
        await completeSecondFactor(strapi, payload);
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
      await checkCode(ctx, user, {
        // A wrong password counts as a failed attempt too: this route must not become a way
        // around the limit on codes, nor an unlimited password oracle.
        before: async (state, nowMs) => {
          const problem = await passwordProblem(ctx, user);
          if (!problem) return;
          await store(user.id, fieldsOf(failureChanges(state, nowMs)));
          refuse(ctx, 400, problem.code, problem.message);
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
      ctx.body = { ok: true };
    }),

    regenerateRecoveryCodes: forCaller(async (ctx, user) => {
      if (!enabled(user)) return refuse(ctx, 409, "NOT_ENABLED", MESSAGES.NOT_ENABLED);
      let recoveryCodes = [];
      await checkCode(ctx, user, {
        more: () => {
          const fresh = freshRecoveryCodes(user);
          recoveryCodes = fresh.recoveryCodes;
          return fresh.fields;
        },
      });
      ctx.body = { recoveryCodes };
    }),
  };
};
