"use strict";

const { createHash, randomBytes } = require("node:crypto");

const { createKeyedLock } = require("../../utils/keyed-lock");
const { lockInTransaction } = require("../../utils/cluster-lock");
const { decideSync, isUniqueViolation, baseUsername, usernameCandidates, stripSecrets } = require("./sync");

const USER = "plugin::users-permissions.user";
const ROLE = "plugin::users-permissions.role";
const IDENTITY = "plugin::accounts.oauth-identity";

module.exports = ({ strapi }) => {
  const up = () => strapi.plugin("users-permissions");
  // Two first sign-ins with the same new email (two providers, or two tabs) at the same moment
  // would both find no user and both create one: users-permissions has no unique index on
  // email. The syncs of one email therefore run one after the other: in this process (byEmail),
  // and across the instances sharing a PostgreSQL database (the email's advisory lock, taken
  // first in each sync's transaction: ../../utils/cluster-lock.js), so the second finds the
  // first's user (and links or refuses as decideSync says). The (provider, subject) unique
  // index guards the same provider account besides.
  const byEmail = createKeyedLock();

  /** Emails are stored lower-case; $eqi also finds one an admin typed with capitals. */
  const findByEmail = (email) =>
    strapi.db.query(USER).findOne({ where: { email: { $eqi: email } }, orderBy: { id: "asc" } });

  async function uniqueUsername(input) {
    for (const candidate of usernameCandidates(baseUsername(input))) {
      const taken = await strapi.db.query(USER).count({ where: { username: { $eqi: candidate } } });
      if (!taken) return candidate;
    }
    return `${baseUsername(input).slice(0, 20)}-${randomBytes(4).toString("hex")}`;
  }

  const advancedSettings = async () =>
    (await strapi.store({ type: "plugin", name: "users-permissions" }).get({ key: "advanced" })) || {};

  async function defaultRole(advanced) {
    const type = advanced.default_role || "authenticated";
    const role = await strapi.db.query(ROLE).findOne({ where: { type } });
    if (!role) throw new Error(`[oauth-sync] default role "${type}" not found`);
    return role;
  }

  const linkIdentity = (input, userId) =>
    strapi.db.query(IDENTITY).create({
      data: {
        provider: input.provider,
        subject: input.subject,
        email: input.email,
        emailVerified: input.emailVerified,
        user: userId,
      },
    });

  /**
   * Reads and writes for one request, in one transaction: the provider account's link, else the
   * user with its email; then creates or links. The (provider, subject) unique index makes a
   * second concurrent first sign-in of the same provider account fail here (and roll back the
   * user it created) instead of creating a second user.
   * @returns {Promise<{ error: object } | { status: number, userId: number, flags: object }>} error: a refusal (../../utils/refusals.js)
   */
  async function decideAndWrite(input, advanced) {
    const identity = await strapi.db.query(IDENTITY).findOne({
      where: { provider: input.provider, subject: input.subject },
      populate: { user: true },
    });
    if (identity && !identity.user) {
      // Its user was deleted (by an administrator): the provider account is linked to nobody.
      await strapi.db.query(IDENTITY).delete({ where: { id: identity.id } });
    }
    const linked = identity?.user ?? null;
    const existing = linked || input.refresh ? null : await findByEmail(input.email);
    const identities = existing
      ? await strapi.db.query(IDENTITY).findMany({ where: { user: { id: existing.id } } })
      : [];
    const decision = decideSync(input, {
      linked,
      existing,
      identities,
      emailConfirmation: advanced.email_confirmation === true,
    });
    const who = `provider=${input.provider} subject-hash=${hashOf(input.subject)}`;

    if (decision.action === "reject") {
      const userId = (linked || existing)?.id;
      strapi.log.info(
        `[oauth-sync] ${decision.error.status} ${userId ? `user id=${userId} ` : ""}${who}: ` + decision.error.message,
      );
      return { error: decision.error };
    }

    if (decision.action === "login") {
      if (!input.refresh && (identity.email !== input.email || identity.emailVerified !== input.emailVerified)) {
        // What the provider says about the address now (a later link by email relies on it).
        await strapi.db
          .query(IDENTITY)
          .update({ where: { id: identity.id }, data: { email: input.email, emailVerified: input.emailVerified } });
      }
      return { status: 200, userId: linked.id, flags: { created: false, linked: false } };
    }

    if (decision.action === "create") {
      const role = await defaultRole(advanced);
      const created = await up()
        .service("user")
        .add({
          username: await uniqueUsername(input),
          email: input.email,
          provider: input.provider,
          // Verified only when the provider says so (email_verified): an unverified address is
          // never treated as proven (a later link by email requires it, see decideSync).
          confirmed: input.emailVerified === true,
          blocked: false,
          role: role.id,
        });
      await linkIdentity(input, created.id);
      strapi.log.info(`[oauth-sync] created user id=${created.id} ${who}`);
      return { status: 201, userId: created.id, flags: { created: true, linked: false } };
    }

    // link: the user keeps its provider (a `local` user must still be able to sign in with its
    // password: /auth/local only looks at provider=local users). See cms/README.md.
    await linkIdentity(input, existing.id);
    strapi.log.info(`[oauth-sync] linked ${who} to user id=${existing.id} (provider ${existing.provider})`);
    return { status: 200, userId: existing.id, flags: { created: false, linked: true } };
  }

  /** decideAndWrite once no other instance syncs the same email (until the transaction `trx` ends). */
  async function lockedDecideAndWrite(trx, input, advanced) {
    await lockInTransaction(strapi, trx, `oauth-sync:${input.email.toLowerCase()}`);
    return decideAndWrite(input, advanced);
  }

  async function respond({ status, userId, flags }, auth, input) {
    // Read back without relations: the same user shape as /auth/local.
    const user = await strapi.db.query(USER).findOne({ where: { id: userId } });
    // When the user last signed in with a provider (ms; ../account/reauthentication.js):
    // now for a callback's sync (a real round trip to the provider); a re-sync only carries on the
    // time it is given (never later than now), so it cannot make a sign-in fresh.
    const authAt = input.refresh
      ? input.authAt === undefined
        ? null
        : Math.min(input.authAt, Date.now())
      : Date.now();
    // A new session of Strapi's (refresh mode), authAtMs in its metadata (session-check.js).
    const jwt = await up()
      .service("jwt")
      .issue({ id: user.id, ...(authAt === null ? {} : { authAtMs: authAt }) });
    const sanitized = await strapi.contentAPI.sanitize.output(user, strapi.getModel(USER), { auth });
    return { status, body: { jwt, user: stripSecrets(sanitized), ...flags, ...(authAt === null ? {} : { authAt }) } };
  }

  /** One sync, when no other sync of the same email is running. */
  async function syncNow(input, { auth } = {}) {
    const advanced = await advancedSettings();
    let outcome;
    try {
      outcome = await strapi.db.transaction(({ trx }) => lockedDecideAndWrite(trx, input, advanced));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A concurrent request linked this provider account first (its transaction committed,
      // ours was rolled back): now the link is there, and this is a plain sign-in.
      strapi.log.info(
        `[oauth-sync] concurrent first sign-in of provider=${input.provider}; using the link the other request made`,
      );
      outcome = await strapi.db.transaction(({ trx }) => lockedDecideAndWrite(trx, input, advanced));
    }
    if (outcome.error) return { refusal: outcome.error };
    return respond(outcome, auth, input);
  }

  return {
    /**
     * @param {{ provider: string, subject: string, email: string, emailVerified: boolean, name?: string,
     *   refresh: boolean }} input validated
     * @returns {Promise<{ status: number, body: object } | { refusal: object }>} the answer, or the refusal to throw
     */
    sync(input, options) {
      return byEmail.run(input.email.toLowerCase(), () => syncNow(input, options));
    },
  };
};

/** Logs name a provider account without its subject (an identifier of the person at the provider). */
function hashOf(value) {
  return createHash("sha256").update(value).digest("hex").slice(0, 12);
}
