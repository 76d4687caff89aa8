"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const { planAuthSettings, normaliseClientUrl, parseAddress, DEFAULT_RESET_MESSAGE } = require("./settings");

/** What users-permissions stores on a fresh database (its bootstrap). */
const fresh = () => ({
  advanced: {
    unique_email: true,
    allow_register: true,
    email_confirmation: false,
    email_reset_password: null,
    email_confirmation_redirection: null,
    default_role: "authenticated",
  },
  email: {
    reset_password: {
      display: "Email.template.reset_password",
      icon: "sync",
      options: {
        from: { name: "Administration Panel", email: "no-reply@strapi.io" },
        response_email: "",
        object: "Reset password",
        message: DEFAULT_RESET_MESSAGE,
      },
    },
    email_confirmation: {
      display: "Email.template.email_confirmation",
      icon: "check-square",
      options: {
        from: { name: "Administration Panel", email: "no-reply@strapi.io" },
        response_email: "",
        object: "Account confirmation",
        message: "<p><%= URL %>?confirmation=<%= CODE %></p>",
      },
    },
  },
});

const env = { clientUrl: "http://localhost:3000" };

test("a fresh database: only the reset link URL is set", () => {
  const stored = fresh();
  const plan = planAuthSettings(stored, env);
  assert.equal(plan.email, null);
  assert.deepEqual(plan.advanced, { ...stored.advanced, email_reset_password: "http://localhost:3000/reset-password" });
  assert.deepEqual(plan.changes, ['advanced.email_reset_password: null → "http://localhost:3000/reset-password"']);
});

test("applied twice, the second run changes nothing", () => {
  const stored = fresh();
  const first = planAuthSettings(stored, { ...env, emailFrom: "Acme <hello@acme.test>" });
  const after = { advanced: first.advanced ?? stored.advanced, email: first.email ?? stored.email };
  const second = planAuthSettings(after, { ...env, emailFrom: "Acme <hello@acme.test>" });
  assert.deepEqual(second, { advanced: null, email: null, changes: [] });
});

test("drifted settings are put back, other keys are kept", () => {
  const stored = fresh();
  Object.assign(stored.advanced, {
    allow_register: false,
    email_confirmation: true,
    default_role: "public",
    email_reset_password: "http://old/reset",
    custom: 1,
  });
  const plan = planAuthSettings(stored, env);
  assert.deepEqual(plan.advanced, {
    unique_email: true,
    allow_register: true,
    email_confirmation: false,
    email_reset_password: "http://localhost:3000/reset-password",
    email_confirmation_redirection: null,
    default_role: "authenticated",
    custom: 1,
  });
  assert.equal(plan.changes.length, 4);
  assert.equal(stored.advanced.allow_register, false, "the input is not mutated");
});

test("a reset message without the link is replaced; an edited one with the link is kept", () => {
  const stored = fresh();
  stored.email.reset_password.options.message = "<p>Hello, reset here: <%= URL %></p>";
  const plan = planAuthSettings(stored, env);
  assert.equal(plan.email.reset_password.options.message, DEFAULT_RESET_MESSAGE);
  assert.equal(stored.email.reset_password.options.message, "<p>Hello, reset here: <%= URL %></p>", "not mutated");
  assert.deepEqual(plan.email.email_confirmation, stored.email.email_confirmation);

  const edited = fresh();
  edited.email.reset_password.options.message = '<a href="<%=URL%>?code=<%= TOKEN %>">Choose a new password</a>';
  assert.equal(planAuthSettings(edited, env).email, null);
});

test("a missing sender or subject is filled in (forgot-password would throw without from)", () => {
  const stored = fresh();
  delete stored.email.reset_password.options.from;
  stored.email.reset_password.options.object = "";
  const plan = planAuthSettings(stored, env);
  assert.deepEqual(plan.email.reset_password.options.from, { name: "", email: "" });
  assert.equal(plan.email.reset_password.options.object, "Reset password");
});

test("EMAIL_FROM sets the sender of both auth emails", () => {
  const plan = planAuthSettings(fresh(), { ...env, emailFrom: "Acme Support <support@acme.test>" });
  for (const template of ["reset_password", "email_confirmation"]) {
    assert.deepEqual(plan.email[template].options.from, { name: "Acme Support", email: "support@acme.test" });
  }
  const plain = planAuthSettings(fresh(), { ...env, emailFrom: "support@acme.test" });
  assert.deepEqual(plain.email.reset_password.options.from, {
    name: "Administration Panel",
    email: "support@acme.test",
  });
});

test("normaliseClientUrl", () => {
  assert.equal(normaliseClientUrl(undefined), "http://localhost:3000");
  assert.equal(normaliseClientUrl(""), "http://localhost:3000");
  assert.equal(normaliseClientUrl("https://www.example.com/"), "https://www.example.com");
  assert.equal(normaliseClientUrl("http://127.0.0.1:3999//"), "http://127.0.0.1:3999");
  assert.equal(normaliseClientUrl("https://example.com/app/"), "https://example.com/app");
  assert.throws(() => normaliseClientUrl("example.com"), /CLIENT_URL/);
  assert.throws(() => normaliseClientUrl("ftp://example.com"), /http\(s\)/);
  assert.throws(() => normaliseClientUrl("https://example.com/?x=1"), /query/);
});

test("parseAddress", () => {
  assert.equal(parseAddress(undefined), null);
  assert.equal(parseAddress(""), null);
  assert.deepEqual(parseAddress("a@b.cd"), { email: "a@b.cd" });
  assert.deepEqual(parseAddress('"Acme" <a@b.cd>'), { name: "Acme", email: "a@b.cd" });
  assert.deepEqual(parseAddress("<a@b.cd>"), { name: undefined, email: "a@b.cd" });
  assert.throws(() => parseAddress("Acme"), /EMAIL_FROM/);
});
