"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  readDeclarations,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/declarations");
const {
  readFields,
  sharedFieldChanged,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/fields");
const { fieldTag, MAX_TAGS } = require("@cms-site/cache-tags");

const {
  writeInput,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/payload");

/**
 * Rule C7 (docs/cms-contract.md, "What a write sends"; decision 0033): a write that keeps a
 * document published sends `cms:<uid>:field:<locale>:<attribute>` (and `*`) for every attribute
 * whose published value it changed, so a listing filtered or sorted by that attribute (which
 * records the tag: the site's client.server.ts) re-renders when an edit moves a document into it.
 */

const localized = { pluginOptions: { i18n: { localized: true } } };
const types = {
  "api::opening.opening": {
    kind: "collectionType",
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true }, "site-cache": {} },
    attributes: {
      title: { type: "string", ...localized },
      slug: { type: "uid", targetField: "title" },
      employmentType: { type: "enumeration", enum: ["full-time", "part-time"], ...localized },
      closesAt: { type: "datetime", ...localized },
      summary: { type: "text", ...localized },
      remote: { type: "boolean" }, // not localized: i18n copies it to every locale
      logo: { type: "media", ...localized },
      team: { type: "relation", relation: "manyToOne", target: "api::team.team", inversedBy: "openings" },
      owner: { type: "relation", relation: "manyToOne", target: "plugin::users-permissions.user" },
      seo: { type: "component", component: "shared.seo", ...localized },
      attachments: { type: "relation", relation: "morphToMany" },
      secret: { type: "string", private: true },
      passcode: { type: "password" },
    },
  },
  "api::team.team": {
    kind: "collectionType",
    options: { draftAndPublish: false },
    pluginOptions: { "site-cache": {} },
    attributes: {
      name: { type: "string" },
      openings: { type: "relation", relation: "oneToMany", target: "api::opening.opening", mappedBy: "team" },
    },
  },
};
const declared = readDeclarations(types);
const OPENING = declared.get("api::opening.opening");
const TEAM = declared.get("api::team.team");
const O = "cms:api::opening.opening";

const row = (fields = {}) => ({
  documentId: "o1",
  locale: "en",
  title: "Engineer",
  employmentType: "part-time",
  remote: false,
  related: { team: ["t1"], owner: ["u1"], logo: ["7"] },
  ...fields,
});
/** The field tags a write sends (sorted), the rest left out. */
const fieldTags = (declaration, input) =>
  (writeInput(declaration, { defaultLocale: "en", documentId: "o1", ...input })?.tags ?? [])
    .filter((tag) => tag.includes(":field:"))
    .sort();
const both = (uid, locale, attribute) => [fieldTag(uid, locale, attribute), fieldTag(uid, "*", attribute)];
const sorted = (tags) => [...new Set(tags)].sort();
/** What every write of an opening sends besides: what it does not compare, and the team's `openings`. */
const always = (locale = "en") => [
  ...both("api::opening.opening", locale, "seo"),
  ...both("api::opening.opening", locale, "attachments"),
  ...both("api::team.team", locale, "openings"),
];

test("readFields: scalars by value, owning relations and media by ids, components, other sides and morphs opaque; private ones never", () => {
  assert.deepEqual(readFields(types["api::opening.opening"].attributes, { localized: true }), {
    compared: ["title", "slug", "employmentType", "closesAt", "summary", "remote"],
    linked: ["team", "owner"],
    media: ["logo"],
    opaque: ["seo", "attachments"],
    shared: ["remote"],
  });
  assert.deepEqual(TEAM.fields, { compared: ["name"], linked: [], media: [], opaque: ["openings"], shared: [] });
  assert.deepEqual(OPENING.inverses, [{ uid: "api::team.team", attribute: "openings" }]);
  assert.equal(fieldTag("api::opening.opening", "en", "employmentType"), `${O}:field:en:employmentType`);
  assert.equal(fieldTag("api::team.team", null, "name"), "cms:api::team.team:field:*:name");
});

test("C7: an edit that moves a document into a filtered listing sends that field's tag, in its locale and every locale's", () => {
  assert.deepEqual(
    fieldTags(OPENING, { before: [row()], after: [row({ employmentType: "full-time" })] }),
    [...both("api::opening.opening", "en", "employmentType"), ...always()].sort(),
  );
  // nothing changed but what is never compared
  assert.deepEqual(fieldTags(OPENING, { before: [row()], after: [row()] }), always().sort());
  // dates compare by their instant (Date or ISO string), null like a missing value
  const at = "2026-11-28T09:00:00.000Z";
  assert.deepEqual(
    fieldTags(OPENING, { before: [row({ summary: null, closesAt: new Date(at) })], after: [row({ closesAt: at })] }),
    always().sort(),
  );
});

test("C7: a relation or a media attribute changed: the ids it holds, compared in any order", () => {
  const moved = row({ related: { team: ["t2"], owner: ["u1"], logo: ["7"] } });
  assert.deepEqual(
    fieldTags(OPENING, { before: [row()], after: [moved] }),
    [...both("api::opening.opening", "en", "team"), ...always()].sort(),
  );
  const logos = (ids) => row({ related: { team: ["t1"], owner: ["u1"], logo: ids } });
  assert.deepEqual(fieldTags(OPENING, { before: [logos(["7", "8"])], after: [logos(["8", "7"])] }), always().sort());
  assert.deepEqual(
    fieldTags(OPENING, { before: [logos(["7"])], after: [logos([])] }),
    [...both("api::opening.opening", "en", "logo"), ...always()].sort(),
  );
});

test("C7: no field tag of its own for a first publish, an unpublish or a delete: the list tag (C3) covers the listing", () => {
  // (the other side of its relation still: a team listing filtered by its openings changes)
  const inverse = both("api::team.team", "en", "openings").sort();
  assert.deepEqual(fieldTags(OPENING, { before: [], after: [row()] }), inverse);
  assert.deepEqual(fieldTags(OPENING, { before: [row()], after: [] }), inverse);
  const sent = writeInput(OPENING, { documentId: "o1", before: [], after: [row()] });
  assert.ok(sent.tags.includes(`${O}:list:en`) && sent.tags.includes(`${O}:list:*`));
});

test("C7: an attribute i18n copies to every locale: its tag in every locale the document is published in", () => {
  assert.deepEqual(
    fieldTags(OPENING, { before: [row()], after: [row({ remote: true })], sharedLocales: ["en", "de", "fr"] }),
    sorted([...["en", "de", "fr"].flatMap((locale) => both("api::opening.opening", locale, "remote")), ...always()]),
  );
});

test("the other locales are read only when an attribute i18n copies changed", () => {
  assert.equal(sharedFieldChanged(OPENING, [row()], [row({ remote: true })]), true);
  assert.equal(sharedFieldChanged(OPENING, [row()], [row({ title: "Lead engineer" })]), false);
  assert.equal(sharedFieldChanged(OPENING, [], [row({ remote: true })]), false);
  assert.equal(sharedFieldChanged(TEAM, [{ documentId: "t1", name: "a" }], [{ documentId: "t1", name: "b" }]), false);
});

test("C7: the documents that link to a changed one: their relation's tag in their locales; over the bound the type's tag", () => {
  const team = { documentId: "t1", locale: null, name: "Platform", related: {} };
  const reverse = [
    {
      uid: "api::opening.opening",
      attribute: "team",
      documentIds: ["o1", "o2"],
      changedLocales: [],
      locales: ["en", "de"],
      overBound: false,
    },
  ];
  assert.deepEqual(
    fieldTags(TEAM, { documentId: "t1", before: [team], after: [{ ...team, name: "Core" }], reverse }),
    sorted([
      "cms:api::team.team:field:*:name",
      "cms:api::team.team:field:*:openings",
      ...["en", "de"].flatMap((locale) => both("api::opening.opening", locale, "team")),
    ]),
  );
  const over = [{ ...reverse[0], documentIds: [], locales: [], overBound: true }];
  const sent = writeInput(TEAM, { documentId: "t1", before: [team], after: [team], reverse: over });
  assert.ok(sent.tags.includes("cms:api::opening.opening"));
  assert.equal(
    sent.tags.some((tag) => tag.startsWith(`${O}:field:`)),
    false,
  );
});

test("C6 holds with C7: a write whose field tags would pass the site's 1,000 sends the types' tags instead", () => {
  // not localized: one tag per changed field (`*`)
  const attributes = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`f${i}`, { type: "string" }]));
  const wide = readDeclarations({
    "api::wide.wide": { kind: "collectionType", pluginOptions: { "site-cache": {} }, attributes },
  }).get("api::wide.wide");
  const values = (v) => Object.fromEntries(Object.keys(attributes).map((name) => [name, v]));
  const sent = writeInput(wide, {
    documentId: "w1",
    before: [{ documentId: "w1", locale: null, ...values("a"), related: {} }],
    after: [{ documentId: "w1", locale: null, ...values("b"), related: {} }],
  });
  assert.ok(sent.tags.length <= MAX_TAGS);
  assert.deepEqual(sent.tags, ["cms:api::wide.wide"]);
  // a few changed fields go as they are
  const some = writeInput(wide, {
    documentId: "w1",
    before: [{ documentId: "w1", locale: null, ...values("a"), related: {} }],
    after: [{ documentId: "w1", locale: null, ...values("a"), f1: "b", f2: "b", related: {} }],
  });
  assert.deepEqual(some.tags.filter((tag) => tag.includes(":field:")).sort(), [
    "cms:api::wide.wide:field:*:f1",
    "cms:api::wide.wide:field:*:f2",
  ]);
});
