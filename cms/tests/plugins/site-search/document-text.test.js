"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { collectText, joined } = require("../../../src/plugins/site-search/server/services/search/document-text");
const { populateOf } = require("../../../src/plugins/site-search/server/services/search/sources");

const COMPONENTS = {
  "shared.link": { label: { type: "string" }, url: { type: "string" } },
  "elements.card": { title: { type: "string" }, link: { type: "component", component: "shared.link" } },
  "sections.card-grid": {
    heading: { type: "string" },
    variant: { type: "enumeration" },
    cards: { type: "component", component: "elements.card", repeatable: true },
  },
  "sections.rich-text": { body: { type: "blocks" } },
};
const componentsOf = (uid) => COMPONENTS[uid] ?? {};
const PAGE = {
  body: { type: "blocks" },
  sections: { type: "dynamiczone", components: Object.keys(COMPONENTS).slice(2) },
};

test("a page's text: blocks, dynamic zone entries and their nested components; no address, no enumeration", () => {
  const page = {
    body: [
      {
        type: "paragraph",
        children: [
          { type: "text", text: "Intro" },
          { type: "link", url: "/x", children: [{ type: "text", text: "here" }] },
        ],
      },
    ],
    sections: [
      {
        __component: "sections.card-grid",
        heading: "Teams",
        variant: "wide",
        cards: [{ title: "Design", link: { label: "Read more", url: "/design" } }],
      },
      { __component: "sections.rich-text", body: [{ type: "heading", children: [{ type: "text", text: "Culture" }] }] },
    ],
  };
  assert.deepEqual(collectText(page, PAGE, componentsOf, []), [
    "Intro",
    "here",
    "Teams",
    "Design",
    "Read more",
    "Culture",
  ]);
});

test("control characters (the index's marks among them) are taken out of the indexed text", () => {
  assert.equal(joined(["a\u0002b\u0003c", "d\u0000"]), "a b c\nd");
});

test("the populate reaches every nested component of a dynamic zone", () => {
  assert.deepEqual(populateOf(PAGE, componentsOf), {
    sections: {
      on: {
        "sections.card-grid": { populate: { cards: { populate: { link: true } } } },
        "sections.rich-text": true,
      },
    },
  });
});
