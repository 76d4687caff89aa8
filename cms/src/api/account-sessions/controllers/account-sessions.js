"use strict";

const { callerOf } = require("../lib/caller");
const { checkUsername } = require("../lib/username");
const { reauthentication } = require("../lib/reauthentication");
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
      const taken = await users().findOne({
        where: { $or: [{ username: { $eqi: username } }, { email: { $eqi: username } }], id: { $ne: user.id } },
      });
      if (taken) return refuse(409, "ConflictError", "Username already taken", "taken");
      await users().update({ where: { id: user.id }, data: { username } });
      ctx.body = { ok: true, username };
    },

    async deleteAccount(ctx) {
      const { answer, payload, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      const refuse = (reason, message) =>
        Object.assign(ctx, {
          status: 400,
          body: { data: null, error: { status: 400, name: "ValidationError", message, details: { reason } } },
        });
      const { password: hash } = await users().findOne({ where: { id: user.id }, select: ["id", "password"] });
      const needs = reauthentication({ hasPassword: Boolean(hash), issuedAtMs: payload.iatMs, nowMs: Date.now() });
      if (needs === "stale") return refuse("sign_in_again", "Sign in again to delete this account");
      if (needs === "password") {
        const password = ctx.request.body?.password;
        if (typeof password !== "string" || password.length === 0)
          return refuse("password_required", "Password required");
        const userService = strapi.plugin("users-permissions").service("user");
        if (!(await userService.validatePassword(password, hash))) return refuse("wrong_password", "Wrong password");
      }
      await strapi.db.query("api::oauth-identity.oauth-identity").deleteMany({ where: { user: { id: user.id } } });
      await users().delete({ where: { id: user.id } });
      ctx.body = { ok: true };
    },

    async endAll(ctx) {
      const { answer, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      await users().update({ where: { id: user.id }, data: { [END_SESSIONS]: true } });
      ctx.body = { ok: true };
    },
  };
};
