"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  changedScheduleFields,
  maySchedule,
  REFUSED,
} = require("../../../../../../packages/strapi-plugin-site-cache/server/policies/may-schedule");

const ARTICLE = "api::article.article";
const STORED = { publishAt: "2026-12-01T09:00:00.000Z", unpublishAt: null };

test("changedScheduleFields: what a body sets differently from the stored draft (same instant, other spelling: unchanged)", () => {
  assert.deepEqual(changedScheduleFields({ title: "x" }, STORED), []);
  assert.deepEqual(changedScheduleFields({ publishAt: "2026-12-01T09:00:00Z", unpublishAt: null }, STORED), []);
  assert.deepEqual(changedScheduleFields({ publishAt: null }, STORED), ["publishAt"]);
  assert.deepEqual(changedScheduleFields({ unpublishAt: "2027-01-01T00:00:00Z" }, STORED), ["unpublishAt"]);
  assert.deepEqual(changedScheduleFields({ publishAt: "2026-12-01T09:00:00Z" }, null), ["publishAt"]);
  assert.deepEqual(changedScheduleFields({ publishAt: null }, null), []);
});

/** The policy's Strapi: an admin who may or may not publish, and a stored draft. */
function policyStrapi({ canPublish }) {
  return {
    plugin: (name) => ({
      service: (service) => {
        if (name === "site-cache")
          return { declarationOf: (uid) => (uid === ARTICLE ? { localized: true, schedule: true } : null) };
        if (name === "content-manager" && service === "permission-checker")
          return { create: () => ({ can: { publish: () => canPublish } }) };
        return { getDefaultLocale: async () => "en" };
      },
    }),
    db: { query: () => ({ findOne: async () => STORED }) },
  };
}

const context = (body, id = "a") => ({
  params: { model: ARTICLE, id },
  request: { body, query: { locale: "en" } },
  state: { userAbility: {} },
});

test("an admin who may not publish (an Author) cannot set, move or clear a schedule: PolicyError", async () => {
  const strapi = policyStrapi({ canPublish: false });
  await assert.rejects(maySchedule(context({ publishAt: "2026-12-24T09:00:00Z" }), {}, { strapi }), {
    name: "PolicyError",
    message: REFUSED,
  });
  await assert.rejects(maySchedule(context({ publishAt: null }), {}, { strapi }), { name: "PolicyError" });
  // The edit view sends every field on each save: the stored values pass, and bodies without them.
  assert.equal(await maySchedule(context({ title: "t", ...STORED }), {}, { strapi }), true);
  assert.equal(await maySchedule(context({ title: "t" }), {}, { strapi }), true);
  // A create with a schedule.
  await assert.rejects(
    maySchedule(
      { ...context({ unpublishAt: "2027-01-01T00:00:00Z" }), params: { model: ARTICLE } },
      {},
      {
        strapi: { ...strapi, db: { query: () => ({ findOne: async () => null }) } },
      },
    ),
    { name: "PolicyError" },
  );
});

test("an admin who may publish (an Editor) sets schedules; types without schedule are not the policy's", async () => {
  assert.equal(
    await maySchedule(
      context({ publishAt: "2026-12-24T09:00:00Z" }),
      {},
      { strapi: policyStrapi({ canPublish: true }) },
    ),
    true,
  );
  const other = { ...context({ publishAt: "x" }), params: { model: "api::author.author", id: "b" } };
  assert.equal(await maySchedule(other, {}, { strapi: policyStrapi({ canPublish: false }) }), true);
});
