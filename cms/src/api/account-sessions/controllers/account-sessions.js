"use strict";

const { callerOf } = require("../lib/caller");
const { checkUsername } = require("../lib/username");
const {
  END_SESSIONS,
  REVOKED_FIELD,
  revokeTokenWrite,
} = require("../../../extensions/users-permissions/sessions-valid-after");

const USER_UID = "plugin::users-permissions.user";

module.exports = ({ strapi }) => {
  const users = () => strapi.db.query(USER_UID);
  const caller = (ctx) =>
    callerOf(ctx, {
      getToken: (context) => strapi.plugin("users-permissions").service("jwt").getToken(context),
      findUser: (id) => users().findOne({ where: { id }, select: ["id", "blocked", REVOKED_FIELD] }),
    });

  return {
    async endThis(ctx) {
      const { answer, payload, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      // The user's lifecycle (sessions-valid-after.js) turns the markers into the private fields.
      await users().update({
        where: { id: user.id },
        data: revokeTokenWrite(payload, user[REVOKED_FIELD], Date.now()),
      });
      ctx.body = { ok: true };
    },

    async changeUsername(ctx) {
      const { answer, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      const { username, error } = checkUsername(ctx.request.body?.username);
      const refuse = (status, name, message, reason) =>
        Object.assign(ctx, { status, body: { data: null, error: { status, name, message, details: { reason } } } });
      if (error) return refuse(400, "ValidationError", error, "invalid");
      const taken = await users().findOne({ where: { username: { $eqi: username }, id: { $ne: user.id } } });
      if (taken) return refuse(409, "ConflictError", "Username already taken", "taken");
      await users().update({ where: { id: user.id }, data: { username } });
      ctx.body = { ok: true, username };
    },

    async endAll(ctx) {
      const { answer, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      await users().update({ where: { id: user.id }, data: { [END_SESSIONS]: true } });
      ctx.body = { ok: true };
    },
  };
};
