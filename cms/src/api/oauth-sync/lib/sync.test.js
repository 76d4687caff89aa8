'use strict';

// Run with `npm test` in cms/ (node:test).
const test = require('node:test');
const assert = require('node:assert/strict');

const { validateSyncBody, decideSync, baseUsername, usernameCandidates, stripSecrets } = require('./sync');

const valid = { provider: 'github', email: 'Ada@Example.COM ', emailVerified: true, name: ' Ada Lovelace ' };

test('validateSyncBody: a valid body is normalised', () => {
  assert.deepEqual(validateSyncBody(valid).value, {
    provider: 'github',
    email: 'ada@example.com',
    emailVerified: true,
    name: 'Ada Lovelace',
  });
  assert.deepEqual(validateSyncBody({ provider: 'local-oidc', email: 'x@y.io', emailVerified: false }).value, {
    provider: 'local-oidc',
    email: 'x@y.io',
    emailVerified: false,
  });
  assert.equal(validateSyncBody({ ...valid, name: null }).value.name, undefined);
  assert.equal(validateSyncBody({ ...valid, name: '   ' }).value.name, undefined);
});

test('validateSyncBody: every problem is listed, in Strapi error shape', () => {
  const { error } = validateSyncBody({ provider: 'GitHub', email: 'not-an-email', emailVerified: 'yes', name: 5, extra: 1 });
  assert.equal(error.status, 400);
  assert.equal(error.body.data, null);
  assert.equal(error.body.error.status, 400);
  assert.equal(error.body.error.name, 'ValidationError');
  const paths = error.body.error.details.errors.map((e) => e.path.join('.')).sort();
  assert.deepEqual(paths, ['email', 'emailVerified', 'extra', 'name', 'provider']);
  assert.match(error.body.error.message, /^Invalid body: /);
  assert.match(error.body.error.message, /emailVerified is required: true or false/);
});

test('validateSyncBody: each field on its own', () => {
  const bad = (patch) => validateSyncBody({ ...valid, ...patch }).error?.body.error.details.errors.map((e) => e.path[0]);
  assert.deepEqual(bad({ provider: undefined }), ['provider']);
  assert.deepEqual(bad({ provider: '' }), ['provider']);
  assert.deepEqual(bad({ provider: 'a'.repeat(41) }), ['provider']);
  assert.deepEqual(bad({ provider: 'git_hub' }), ['provider']);
  assert.deepEqual(bad({ provider: 'local' }), ['provider']);
  assert.equal(bad({ provider: 'a'.repeat(40) }), undefined);
  assert.deepEqual(bad({ email: 'a@b' }), ['email']);
  assert.deepEqual(bad({ email: 'a b@c.de' }), ['email']);
  assert.deepEqual(bad({ email: `${'a'.repeat(250)}@b.de` }), ['email']);
  assert.deepEqual(bad({ email: ['a@b.de'] }), ['email']);
  assert.deepEqual(bad({ emailVerified: 'true' }), ['emailVerified']);
  assert.deepEqual(bad({ emailVerified: undefined }), ['emailVerified']);
  assert.deepEqual(bad({ name: 'n'.repeat(101) }), ['name']);
  assert.equal(bad({ name: 'n'.repeat(100) }), undefined);
});

test('validateSyncBody: not an object', () => {
  for (const body of [undefined, null, 'x', [valid], 3]) {
    const { error } = validateSyncBody(body);
    assert.equal(error.status, 400, String(body));
    assert.match(error.body.error.message, /JSON object/);
  }
});

const input = { provider: 'github', email: 'ada@example.com', emailVerified: true };

test('decideSync: nobody with that email → create', () => {
  assert.deepEqual(decideSync(null, input), { action: 'create' });
  assert.deepEqual(decideSync(undefined, { ...input, emailVerified: false }), { action: 'create' });
});

test('decideSync: a blocked user → 403, whatever the provider or verification', () => {
  for (const existing of [
    { id: 1, provider: 'github', blocked: true, confirmed: true },
    { id: 1, provider: 'local', blocked: true, confirmed: true },
  ]) {
    for (const emailVerified of [true, false]) {
      const decision = decideSync(existing, { ...input, emailVerified });
      assert.equal(decision.action, 'reject');
      assert.equal(decision.error.status, 403);
      assert.equal(decision.error.body.error.name, 'ForbiddenError');
      assert.equal(decision.error.body.error.message, 'This account has been blocked');
    }
  }
});

test('decideSync: same provider → login (verified or not)', () => {
  const existing = { id: 1, provider: 'github', blocked: false, confirmed: true };
  assert.deepEqual(decideSync(existing, input), { action: 'login', confirm: false });
  assert.deepEqual(decideSync(existing, { ...input, emailVerified: false }), { action: 'login', confirm: false });
  // An unconfirmed user is confirmed when the provider vouches for the email.
  assert.deepEqual(decideSync({ ...existing, confirmed: false }, input), { action: 'login', confirm: true });
  assert.deepEqual(decideSync({ ...existing, confirmed: false }, { ...input, emailVerified: false }), { action: 'login', confirm: false });
});

test('decideSync: another provider and a verified email → link', () => {
  assert.deepEqual(decideSync({ id: 1, provider: 'local', blocked: false, confirmed: true }, input), { action: 'link', confirm: false });
  assert.deepEqual(decideSync({ id: 1, provider: 'google', blocked: null, confirmed: false }, input), { action: 'link', confirm: true });
});

test('decideSync: another provider and an unverified email → 409 with what to do', () => {
  const local = decideSync({ id: 1, provider: 'local', blocked: false, confirmed: true }, { ...input, emailVerified: false });
  assert.equal(local.action, 'reject');
  assert.equal(local.error.status, 409);
  assert.equal(local.error.body.error.name, 'ConflictError');
  assert.equal(
    local.error.body.error.message,
    'An account with this email already exists. Sign in with your password, then link github from your account page.',
  );
  assert.deepEqual(local.error.body.error.details, { reason: 'email_not_verified', provider: 'github', existingProvider: 'local' });

  const google = decideSync({ id: 1, provider: 'google', blocked: false, confirmed: true }, { ...input, emailVerified: false });
  assert.match(google.error.body.error.message, /Sign in with google, then link github/);
});

test('baseUsername: from the name, else the email local part; 3..30 safe characters', () => {
  assert.equal(baseUsername({ name: "Jöhn O'Neil", email: 'x@y.z' }), 'john-o-neil');
  assert.equal(baseUsername({ email: 'Ada.Lovelace+gh@example.com' }), 'ada.lovelace-gh');
  assert.equal(baseUsername({ name: '李', email: 'li@example.com' }), 'li-user');
  assert.equal(baseUsername({ name: '!!!', email: '+@example.com' }), 'user');
  assert.equal(baseUsername({ name: 'x'.repeat(60), email: 'a@b.cd' }).length, 30);
  assert.equal(baseUsername({ name: `${'a'.repeat(29)}--b`, email: 'a@b.cd' }), 'a'.repeat(29));
});

test('usernameCandidates: base, then numbered', () => {
  const list = usernameCandidates('ada');
  assert.equal(list[0], 'ada');
  assert.equal(list[1], 'ada-2');
  assert.equal(list.length, 20);
});

test('stripSecrets: no password or tokens leave', () => {
  assert.deepEqual(stripSecrets({ id: 1, email: 'a@b.cd', password: 'h', resetPasswordToken: 't', confirmationToken: 'c' }), { id: 1, email: 'a@b.cd' });
});
