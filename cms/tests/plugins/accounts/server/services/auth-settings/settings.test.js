"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  planAuthSettings,
  normaliseClientUrl,
  parseAddress,
  defaultSender,
  parseEmailConfirmation,
  DEFAULT_RESET_MESSAGE,
} = require("../../../../../../src/plugins/accounts/server/services/auth-settings/settings");

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

const SENDER = "Acme <no-reply@localhost>";
/** A later start with no auth variable set explicitly. */
const env = { clientUrl: "http://localhost:3000", emailFrom: SENDER };
const first = { ...env, firstStart: true };
const SITE_LINK = "http://localhost:3000/confirm-email?confirmation=<%= CODE %>";

/** The stored values after a plan was applied. */
const applied = (stored, plan) => ({ advanced: plan.advanced ?? stored.advanced, email: plan.email ?? stored.email });

test("the first start: links to the site, the site's sender on both templates, confirmation off", () => {
  const stored = fresh();
  const plan = planAuthSettings(stored, first);
  assert.deepEqual(plan.advanced, {
    ...stored.advanced,
    email_reset_password: "http://localhost:3000/reset-password",
    email_confirmation_redirection: "http://localhost:3000/confirm-email?status=confirmed",
  });
  assert.equal(plan.email.email_confirmation.options.message, "<p>" + SITE_LINK + "</p>");
  for (const template of ["reset_password", "email_confirmation"]) {
    assert.deepEqual(plan.email[template].options.from, { name: "Acme", email: "no-reply@localhost" });
  }
  assert.equal(plan.email.reset_password.options.message, DEFAULT_RESET_MESSAGE);
  assert.ok(plan.changes.includes('advanced.email_reset_password: null → "http://localhost:3000/reset-password"'));
});

test("CMS_EMAIL_CONFIRMATION: applied on every start when set; unset, the first start turns it off", () => {
  const on = fresh();
  on.advanced.email_confirmation = true;
  assert.equal(planAuthSettings(on, first).advanced.email_confirmation, false);
  assert.equal(planAuthSettings(on, env).advanced, null, "a later start leaves the admin's choice");
  assert.equal(planAuthSettings(on, { ...env, emailConfirmation: false }).advanced.email_confirmation, false);
  assert.equal(planAuthSettings(fresh(), { ...env, emailConfirmation: true }).advanced.email_confirmation, true);
  assert.equal(planAuthSettings(fresh(), { ...first, emailConfirmation: true }).advanced.email_confirmation, true);
});

test("applied twice, the second run changes nothing", () => {
  const stored = fresh();
  const all = { ...first, emailFrom: "Acme <hello@acme.test>", emailFromSet: true, emailConfirmation: true };
  const once = planAuthSettings(stored, all);
  const twice = planAuthSettings(applied(stored, once), { ...all, firstStart: false, clientUrlSet: true });
  assert.deepEqual(twice, { advanced: null, email: null, changes: [] });
});

test("after the first start, an admin's changes survive unless a variable sets them", () => {
  const stored = applied(fresh(), planAuthSettings(fresh(), first));
  Object.assign(stored.advanced, {
    allow_register: false,
    email_confirmation: true,
    default_role: "public",
    email_reset_password: "http://old/reset",
    custom: 1,
  });
  stored.email.reset_password.options.from = { name: "Support", email: "support@acme.test" };
  assert.deepEqual(planAuthSettings(stored, env), { advanced: null, email: null, changes: [] });

  const plan = planAuthSettings(stored, { ...env, clientUrlSet: true });
  assert.deepEqual(plan.advanced, {
    ...stored.advanced,
    email_reset_password: "http://localhost:3000/reset-password",
  });
  assert.equal(plan.changes.length, 1);
  assert.equal(stored.advanced.email_reset_password, "http://old/reset", "the input is not mutated");

  const sender = planAuthSettings(stored, { ...env, emailFrom: "Acme <hi@acme.test>", emailFromSet: true });
  assert.deepEqual(sender.email.reset_password.options.from, { name: "Acme", email: "hi@acme.test" });
});

test("CLIENT_URL set: the confirmation link follows it; an edited message keeps its words", () => {
  const stored = applied(fresh(), planAuthSettings(fresh(), first));
  stored.email.email_confirmation.options.message = `<a href="${SITE_LINK}">Confirm</a>`;
  const moved = planAuthSettings(stored, { ...env, clientUrl: "https://www.acme.test", clientUrlSet: true });
  assert.equal(
    moved.email.email_confirmation.options.message,
    '<a href="https://www.acme.test/confirm-email?confirmation=<%= CODE %>">Confirm</a>',
  );
  // Strapi's own link (to the CMS) is always replaced: the site's page must be the one asked.
  const strapiLink = fresh();
  assert.equal(planAuthSettings(strapiLink, env).email.email_confirmation.options.message, `<p>${SITE_LINK}</p>`);
});

test("a reset message without the link is replaced; an edited one with the link is kept", () => {
  const stored = applied(fresh(), planAuthSettings(fresh(), first));
  stored.email.reset_password.options.message = "<p>Hello, reset here: <%= URL %></p>";
  const plan = planAuthSettings(stored, env);
  assert.equal(plan.email.reset_password.options.message, DEFAULT_RESET_MESSAGE);
  assert.equal(stored.email.reset_password.options.message, "<p>Hello, reset here: <%= URL %></p>", "not mutated");
  assert.deepEqual(plan.email.email_confirmation, stored.email.email_confirmation);

  const edited = applied(fresh(), planAuthSettings(fresh(), first));
  edited.email.reset_password.options.message = '<a href="<%=URL%>?code=<%= TOKEN %>">Choose a new password</a>';
  assert.equal(planAuthSettings(edited, env).email, null);
});

test("a missing sender or subject is filled in (forgot-password would throw without from)", () => {
  const stored = applied(fresh(), planAuthSettings(fresh(), first));
  delete stored.email.reset_password.options.from;
  stored.email.reset_password.options.object = "";
  const plan = planAuthSettings(stored, env);
  assert.deepEqual(plan.email.reset_password.options.from, { name: "Acme", email: "no-reply@localhost" });
  assert.equal(plan.email.reset_password.options.object, "Reset password");
});

test("EMAIL_FROM sets the sender of both auth emails", () => {
  const set = { ...env, emailFromSet: true };
  const plan = planAuthSettings(fresh(), { ...set, emailFrom: "Acme Support <support@acme.test>" });
  for (const template of ["reset_password", "email_confirmation"]) {
    assert.deepEqual(plan.email[template].options.from, { name: "Acme Support", email: "support@acme.test" });
  }
  // No name: Strapi then uses the provider's default sender (EMAIL_FROM itself).
  const plain = planAuthSettings(fresh(), { ...set, emailFrom: "support@acme.test" });
  assert.deepEqual(plain.email.reset_password.options.from, { name: "", email: "support@acme.test" });
});

test("defaultSender: the site's name at CLIENT_URL's host", () => {
  assert.equal(defaultSender("Acme", "https://www.acme.test"), "Acme <no-reply@acme.test>");
  assert.equal(defaultSender("", "http://127.0.0.1:3000"), "Acme <no-reply@127.0.0.1>");
  assert.equal(defaultSender('Bad <"name">', "https://shop.example.com/base"), "Bad name <no-reply@shop.example.com>");
});

test("parseEmailConfirmation", () => {
  assert.equal(parseEmailConfirmation(undefined), undefined);
  assert.equal(parseEmailConfirmation(" "), undefined);
  assert.equal(parseEmailConfirmation("TRUE"), true);
  assert.equal(parseEmailConfirmation("false"), false);
  assert.throws(() => parseEmailConfirmation("yes"), /must be "true" or "false"/);
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
