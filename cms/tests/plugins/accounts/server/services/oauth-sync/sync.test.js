"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  validateSyncBody,
  decideSync,
  emailProven,
  isUniqueViolation,
  baseUsername,
  usernameCandidates,
  stripSecrets,
} = require("../../../../../../src/plugins/accounts/server/services/oauth-sync/sync");

const valid = {
  provider: "github",
  subject: "583231",
  email: "Ada@Example.COM ",
  emailVerified: true,
  name: " Ada Lovelace ",
};

test("validateSyncBody: a valid body is normalised", () => {
  assert.deepEqual(validateSyncBody(valid).value, {
    provider: "github",
    subject: "583231",
    email: "ada@example.com",
    emailVerified: true,
    refresh: false,
    name: "Ada Lovelace",
  });
  assert.deepEqual(
    validateSyncBody({ provider: "local-oidc", subject: "a b|c", email: "x@y.io", emailVerified: false, refresh: true })
      .value,
    {
      provider: "local-oidc",
      subject: "a b|c",
      email: "x@y.io",
      emailVerified: false,
      refresh: true,
    },
  );
  assert.equal(validateSyncBody({ ...valid, name: null }).value.name, undefined);
  assert.equal(validateSyncBody({ ...valid, name: "   " }).value.name, undefined);
});

test("validateSyncBody: every problem is listed, with their paths", () => {
  const { error } = validateSyncBody({
    provider: "GitHub",
    email: "not-an-email",
    emailVerified: "yes",
    name: 5,
    extra: 1,
    refresh: "yes",
  });
  assert.equal(error.status, 400);
  assert.equal(error.code, "INVALID_BODY");
  const paths = error.details.errors.map((e) => e.path.join(".")).sort();
  assert.deepEqual(paths, ["email", "emailVerified", "extra", "name", "provider", "refresh", "subject"]);
  assert.match(error.message, /^Invalid body: /);
  assert.match(error.message, /emailVerified is required: true or false/);
});

test("validateSyncBody: each field on its own", () => {
  const bad = (patch) => validateSyncBody({ ...valid, ...patch }).error?.details.errors.map((e) => e.path[0]);
  assert.deepEqual(bad({ provider: undefined }), ["provider"]);
  assert.deepEqual(bad({ provider: "" }), ["provider"]);
  assert.deepEqual(bad({ provider: "a".repeat(41) }), ["provider"]);
  assert.deepEqual(bad({ provider: "git_hub" }), ["provider"]);
  assert.deepEqual(bad({ provider: "local" }), ["provider"]);
  assert.equal(bad({ provider: "a".repeat(40) }), undefined);
  assert.deepEqual(bad({ subject: undefined }), ["subject"]);
  assert.deepEqual(bad({ subject: "" }), ["subject"]);
  assert.deepEqual(bad({ subject: "   " }), ["subject"]);
  assert.deepEqual(bad({ subject: 583231 }), ["subject"]);
  assert.deepEqual(bad({ subject: "s".repeat(256) }), ["subject"]);
  assert.deepEqual(bad({ subject: "line\nbreak" }), ["subject"]);
  assert.deepEqual(bad({ subject: "sübject" }), ["subject"]);
  assert.equal(bad({ subject: "s".repeat(255) }), undefined);
  assert.deepEqual(bad({ email: "a@b" }), ["email"]);
  assert.deepEqual(bad({ email: "a b@c.de" }), ["email"]);
  assert.deepEqual(bad({ email: `${"a".repeat(250)}@b.de` }), ["email"]);
  assert.deepEqual(bad({ email: ["a@b.de"] }), ["email"]);
  assert.deepEqual(bad({ emailVerified: "true" }), ["emailVerified"]);
  assert.deepEqual(bad({ emailVerified: undefined }), ["emailVerified"]);
  assert.deepEqual(bad({ name: "n".repeat(101) }), ["name"]);
  assert.equal(bad({ name: "n".repeat(100) }), undefined);
});

test("validateSyncBody: not an object", () => {
  for (const body of [undefined, null, "x", [valid], 3]) {
    const { error } = validateSyncBody(body);
    assert.equal(error.status, 400, String(body));
    assert.match(error.message, /JSON object/);
  }
});

const input = { provider: "github", subject: "583231", email: "ada@example.com", emailVerified: true, refresh: false };
const local = { id: 1, email: "ada@example.com", provider: "local", blocked: false, confirmed: true };

test("decideSync: a linked provider account → login, whatever the email says", () => {
  const linked = { id: 7, provider: "github", blocked: false, confirmed: true };
  assert.deepEqual(decideSync(input, { linked }), { action: "login" });
  assert.deepEqual(decideSync({ ...input, emailVerified: false, email: "other@example.com" }, { linked }), {
    action: "login",
  });
  assert.deepEqual(decideSync({ ...input, refresh: true }, { linked }), { action: "login" });
});

test("decideSync: nobody with that email and no link → create", () => {
  assert.deepEqual(decideSync(input, {}), { action: "create" });
  assert.deepEqual(decideSync({ ...input, emailVerified: false }, { existing: null }), { action: "create" });
});

test("decideSync: refresh never creates or links (404 without a link)", () => {
  for (const existing of [null, local]) {
    const decision = decideSync({ ...input, refresh: true }, { existing, emailConfirmation: true });
    assert.equal(decision.action, "reject");
    assert.equal(decision.error.status, 404);
    assert.equal(decision.error.code, "NOT_LINKED");
  }
});

test("decideSync: a blocked user → 403, linked or found by email, verified or not", () => {
  const blocked = { id: 1, provider: "github", blocked: true, confirmed: true };
  const decisions = [
    decideSync(input, { linked: blocked }),
    decideSync(input, { existing: blocked }),
    decideSync({ ...input, emailVerified: false }, { existing: { ...local, blocked: true } }),
  ];
  for (const decision of decisions) {
    assert.equal(decision.action, "reject");
    assert.equal(decision.error.status, 403);
    assert.equal(decision.error.code, "BLOCKED");
    assert.equal(decision.error.message, "This account has been blocked");
  }
});

// Issue 11, point 4: account pre-hijack. Registration sends no confirmation mail, so anyone can
// register victim@example.com with a password; the victim's later Google sign-in must not land
// in that account (where the attacker still has the password).
test("decideSync: pre-hijack: a password account registered without a confirmation mail is never linked", () => {
  // email_confirmation off (this project): Strapi stores confirmed: true at registration.
  const attackers = decideSync(input, { existing: local, emailConfirmation: false });
  assert.equal(attackers.action, "reject");
  assert.equal(attackers.error.status, 409);
  assert.equal(attackers.error.code, "ACCOUNT_EMAIL_NOT_CONFIRMED");
  assert.deepEqual(attackers.error.details, { provider: "github", existingProvider: "local" });
  assert.match(
    attackers.error.message,
    /never confirmed.*Sign in with your password instead \(or reset the password by email\)/,
  );
  // email_confirmation on, the attacker never clicked the link (no mail to them): not linked, not confirmed either.
  const unconfirmed = decideSync(input, { existing: { ...local, confirmed: false }, emailConfirmation: true });
  assert.equal(unconfirmed.action, "reject");
  assert.equal(unconfirmed.error.code, "ACCOUNT_EMAIL_NOT_CONFIRMED");
  assert.equal("confirm" in unconfirmed, false);
});

test("decideSync: a password account whose address was confirmed by mail is linked, for a verified email only", () => {
  assert.deepEqual(decideSync(input, { existing: local, emailConfirmation: true }), { action: "link" });
  const unverified = decideSync({ ...input, emailVerified: false }, { existing: local, emailConfirmation: true });
  assert.equal(unverified.action, "reject");
  assert.equal(unverified.error.status, 409);
  assert.equal(
    unverified.error.message,
    "An account with this email already exists. Sign in with your password, then link github from your account page.",
  );
  assert.equal(unverified.error.code, "EMAIL_NOT_VERIFIED");
  assert.deepEqual(unverified.error.details, { provider: "github", existingProvider: "local" });
});

test("decideSync: an account made by another provider account is linked only if that one verified the address", () => {
  const google = { id: 2, email: "ada@example.com", provider: "google", blocked: false, confirmed: true };
  const verifiedByGoogle = [{ provider: "google", email: "ada@example.com", emailVerified: true }];
  const notVerified = [{ provider: "google", email: "ada@example.com", emailVerified: false }];
  const otherAddress = [{ provider: "google", email: "ada@elsewhere.org", emailVerified: true }];
  assert.deepEqual(decideSync(input, { existing: google, identities: verifiedByGoogle }), { action: "link" });
  for (const identities of [notVerified, otherAddress]) {
    const decision = decideSync(input, { existing: google, identities });
    assert.equal(decision.action, "reject");
    assert.equal(decision.error.code, "ACCOUNT_EMAIL_NOT_CONFIRMED");
    assert.match(decision.error.message, /Sign in with google instead\.$/);
  }
  // An unverified provider email never links, even to a proven account.
  const unverified = decideSync({ ...input, emailVerified: false }, { existing: google, identities: verifiedByGoogle });
  assert.equal(unverified.error.code, "EMAIL_NOT_VERIFIED");
  assert.match(unverified.error.message, /Sign in with google, then link github/);
});

test("emailProven: accounts created before identities were recorded are taken over by the same provider only", () => {
  const legacy = { id: 3, email: "ada@example.com", provider: "github", confirmed: true };
  assert.equal(emailProven(legacy, { emailConfirmation: false, identities: [], provider: "github" }), true);
  assert.equal(emailProven(legacy, { emailConfirmation: false, identities: [], provider: "google" }), false);
  // Once it has a link, only a verified one counts.
  assert.equal(
    emailProven(legacy, {
      emailConfirmation: false,
      identities: [{ email: "ada@example.com", emailVerified: false }],
      provider: "github",
    }),
    false,
  );
  assert.equal(
    emailProven({ ...local, provider: null }, { emailConfirmation: true, identities: [], provider: "github" }),
    true,
  );
  assert.equal(
    emailProven({ ...local, provider: null }, { emailConfirmation: false, identities: [], provider: "github" }),
    false,
  );
});

test("isUniqueViolation: SQLite and PostgreSQL errors, wrapped or not", () => {
  assert.equal(isUniqueViolation(Object.assign(new Error("x"), { code: "SQLITE_CONSTRAINT_UNIQUE" })), true);
  assert.equal(isUniqueViolation(Object.assign(new Error("x"), { code: "23505" })), true);
  assert.equal(
    isUniqueViolation(
      new Error("insert into `oauth_identities` - UNIQUE constraint failed: oauth_identities.provider"),
    ),
    true,
  );
  assert.equal(
    isUniqueViolation(new Error("wrapped", { cause: new Error('duplicate key value violates unique constraint "x"') })),
    true,
  );
  assert.equal(isUniqueViolation(new Error("SQLITE_BUSY")), false);
  assert.equal(isUniqueViolation(undefined), false);
});

test("baseUsername: from the name, else the email local part; 3..30 safe characters", () => {
  assert.equal(baseUsername({ name: "Jöhn O'Neil", email: "x@y.z" }), "john-o-neil");
  assert.equal(baseUsername({ email: "Ada.Lovelace+gh@example.com" }), "ada.lovelace-gh");
  assert.equal(baseUsername({ name: "李", email: "li@example.com" }), "li-user");
  assert.equal(baseUsername({ name: "!!!", email: "+@example.com" }), "user");
  assert.equal(baseUsername({ name: "x".repeat(60), email: "a@b.cd" }).length, 30);
  assert.equal(baseUsername({ name: `${"a".repeat(29)}--b`, email: "a@b.cd" }), "a".repeat(29));
});

test("usernameCandidates: base, then numbered", () => {
  const list = usernameCandidates("ada");
  assert.equal(list[0], "ada");
  assert.equal(list[1], "ada-2");
  assert.equal(list.length, 20);
});

test("stripSecrets: no password or tokens leave", () => {
  assert.deepEqual(
    stripSecrets({ id: 1, email: "a@b.cd", password: "h", resetPasswordToken: "t", confirmationToken: "c" }),
    { id: 1, email: "a@b.cd" },
  );
});

test("authAt (the provider sign-in a re-sync carries on) is a time in ms, and only with refresh", () => {
  const base = { provider: "github", subject: "1", email: "a@example.com", emailVerified: true };
  assert.equal(validateSyncBody({ ...base, refresh: true, authAt: 1_700_000_000_000 }).value.authAt, 1_700_000_000_000);
  assert.equal("authAt" in validateSyncBody({ ...base, refresh: true }).value, false);
  for (const authAt of [-1, 0, 1.5, "1700000000000", {}]) {
    assert.ok(validateSyncBody({ ...base, refresh: true, authAt }).error, String(authAt));
  }
  // A callback's sync sets the time itself: it never takes one.
  assert.ok(validateSyncBody({ ...base, authAt: 1_700_000_000_000 }).error);
});
