"use strict";

// Run with `npm test` in cms/ (node:test).
// docs/security.md, finding 35: a sign-in running while the password changes keeps no session.
const test = require("node:test");
const assert = require("node:assert/strict");
const { randomUUID } = require("node:crypto");
const { errors } = require("@strapi/utils");

const { extendSignInTiming } = require("../../../../../src/plugins/accounts/server/users-permissions/sign-in-timing");
const { endAllSessions } = require("../../../../../src/plugins/accounts/server/users-permissions/session-check");
const { setup } = require("./strapi-sessions-fake");

const USER_UID = "plugin::users-permissions.user";

/**
 * Strapi's `callback` in refresh mode, in its order (controllers/auth.js): read the user, compare
 * the password with the hash read, then start the session. `between()` runs after the comparison
 * and before the session row is written: where the test puts the password change.
 */
function fakeStrapiCallback(state) {
  return {
    async callback(ctx) {
      const { strapi } = state;
      const { identifier, password } = ctx.request.body;
      const user = await strapi.db.query(USER_UID).findOne({
        where: { provider: "local", $or: [{ email: identifier.toLowerCase() }, { username: identifier }] },
      });
      if (!user?.password || user.password !== `hash:${password}`) {
        throw new errors.ValidationError("Invalid identifier or password");
      }
      await state.between();
      const manager = strapi.sessionManager("users-permissions");
      const refresh = await manager.generateRefreshToken(String(user.id), randomUUID(), { type: "refresh" });
      const access = await manager.generateAccessToken(refresh.token);
      state.answered = access.token;
      ctx.body = { jwt: access.token, user: { id: user.id } };
    },
  };
}

function signInSetup() {
  const state = { between: async () => {} };
  const fake = setup({ authController: fakeStrapiCallback(state) });
  state.strapi = fake.strapi;
  Object.assign(fake.tables[USER_UID][1], {
    provider: "local",
    email: "ann@example.com",
    username: "ann",
    password: "hash:old-password",
  });
  extendSignInTiming(fake.points);
  const signIn = (password) => {
    const ctx = { params: {}, request: { body: { identifier: "ann@example.com", password } } };
    return fake.points.controllers.auth.callback(ctx).then(() => ctx);
  };
  // Strapi's change-password / reset-password: the new hash is written, then every session ends.
  const changePassword = async () => {
    await fake.strapi.db.query(USER_UID).update({ where: { id: 8 }, data: { password: "hash:new-password" } });
    await endAllSessions(fake.strapi, 8);
  };
  return { ...fake, state, signIn, changePassword };
}

test("a password change between Strapi's password check and its session write: the sign-in gets no session", async () => {
  const { state, signIn, changePassword, jwt, sessions } = signInSetup();
  state.between = changePassword;
  await assert.rejects(signIn("old-password"), (error) => {
    assert.ok(error instanceof errors.ValidationError);
    assert.equal(error.message, "Invalid identifier or password");
    return true;
  });
  assert.equal(typeof state.answered, "string", "Strapi did start a session");
  await assert.rejects(jwt.verify(state.answered), /Invalid token/, "its token opens nothing");
  assert.deepEqual(sessions(), [], "its row is gone");
});

test("no change meanwhile: the sign-in keeps its session; the new password signs in after a change", async () => {
  const { signIn, changePassword, jwt } = signInSetup();
  const ctx = await signIn("old-password");
  assert.equal((await jwt.verify(ctx.body.jwt)).id, 8);
  await changePassword();
  await assert.rejects(jwt.verify(ctx.body.jwt), /Invalid token/);
  await assert.rejects(signIn("old-password"), /Invalid identifier or password/);
  const again = await signIn("new-password");
  assert.equal((await jwt.verify(again.body.jwt)).id, 8);
});
