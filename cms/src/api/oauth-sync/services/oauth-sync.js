'use strict';

const { randomBytes } = require('node:crypto');

const { decideSync, baseUsername, usernameCandidates, stripSecrets } = require('../lib/sync');

const USER = 'plugin::users-permissions.user';
const ROLE = 'plugin::users-permissions.role';

module.exports = ({ strapi }) => {
  const up = () => strapi.plugin('users-permissions');

  /** Emails are stored lower-case; $eqi also finds one an admin typed with capitals. */
  const findByEmail = (email) => strapi.db.query(USER).findOne({ where: { email: { $eqi: email } }, orderBy: { id: 'asc' } });

  async function uniqueUsername(input) {
    for (const candidate of usernameCandidates(baseUsername(input))) {
      const taken = await strapi.db.query(USER).count({ where: { username: { $eqi: candidate } } });
      if (!taken) return candidate;
    }
    return `${baseUsername(input).slice(0, 20)}-${randomBytes(4).toString('hex')}`;
  }

  async function defaultRole() {
    const advanced = (await strapi.store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'advanced' })) || {};
    const type = advanced.default_role || 'authenticated';
    const role = await strapi.db.query(ROLE).findOne({ where: { type } });
    if (!role) throw new Error(`[oauth-sync] default role "${type}" not found`);
    return role;
  }

  async function respond(status, user, flags, auth) {
    const jwt = up().service('jwt').issue({ id: user.id });
    const sanitized = await strapi.contentAPI.sanitize.output(user, strapi.getModel(USER), { auth });
    return { status, body: { jwt, user: stripSecrets(sanitized), ...flags } };
  }

  return {
    /**
     * @param {{ provider: string, email: string, emailVerified: boolean, name?: string }} input validated
     * @returns {Promise<{ status: number, body: object }>}
     */
    async sync(input, { auth } = {}) {
      const existing = await findByEmail(input.email);
      const decision = decideSync(existing, input);

      if (decision.action === 'reject') {
        strapi.log.info(`[oauth-sync] ${decision.error.status} user id=${existing.id} provider=${input.provider}: ${decision.error.body.error.message}`);
        return decision.error;
      }

      if (decision.action === 'create') {
        const role = await defaultRole();
        const created = await up().service('user').add({
          username: await uniqueUsername(input),
          email: input.email,
          provider: input.provider,
          confirmed: true,
          blocked: false,
          role: role.id,
        });
        strapi.log.info(`[oauth-sync] created user id=${created.id} provider=${input.provider}`);
        // Read back without relations: the same user shape as /auth/local and the 200 answers.
        const user = await strapi.db.query(USER).findOne({ where: { id: created.id } });
        return respond(201, user, { created: true, linked: false }, auth);
      }

      let user = existing;
      if (decision.confirm) {
        user = await strapi.db.query(USER).update({ where: { id: existing.id }, data: { confirmed: true } });
      }
      if (decision.action === 'link') {
        // The user keeps its provider (a `local` user must still be able to sign in with its
        // password: /auth/local only looks at provider=local users). See cms/README.md.
        strapi.log.info(`[oauth-sync] linked ${input.provider} to user id=${user.id} (provider ${user.provider})`);
        return respond(200, user, { created: false, linked: true }, auth);
      }
      return respond(200, user, { created: false, linked: false }, auth);
    },
  };
};
