"use strict";

const { collectText, joined } = require("./document-text");

const PAGE = "api::page.page";
const ARTICLE = "api::article.article";

/**
 * What the search indexes, per content type: how a published document is read (populate) and what
 * of it is its title, its description and its body. The CMS pages (title, SEO description, the
 * text of their body and sections) and the articles (title, excerpt, body, category, author).
 * An author or a category only shows through its articles: a write to one reindexes them (LINKED).
 */
const LINKED = { "api::author.author": "author", "api::category.category": "category" };

/** The populate of every component and dynamic zone under `attributes`, to any depth (media and relations: none). */
function populateOf(attributes, componentsOf) {
  const spec = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.type === "component") spec[name] = nested(componentsOf(attribute.component), componentsOf);
    if (attribute.type === "dynamiczone") {
      spec[name] = {
        on: Object.fromEntries(attribute.components.map((uid) => [uid, nested(componentsOf(uid), componentsOf)])),
      };
    }
  }
  return spec;
}

function nested(attributes, componentsOf) {
  const inner = populateOf(attributes, componentsOf);
  return Object.keys(inner).length ? { populate: inner } : true;
}

const pick = (attributes, names) =>
  Object.fromEntries(names.filter((n) => attributes[n]).map((n) => [n, attributes[n]]));

function sources(strapi) {
  const componentsOf = (uid) => strapi.components[uid]?.attributes ?? {};
  const attributesOf = (uid) => strapi.contentTypes[uid]?.attributes ?? {};
  const pageBody = pick(attributesOf(PAGE), ["body", "sections"]);
  const articleBody = pick(attributesOf(ARTICLE), ["body"]);
  return {
    [PAGE]: {
      type: "page",
      populate: populateOf(pick(attributesOf(PAGE), ["seo", "sections"]), componentsOf),
      entry: (doc) => ({
        title: joined([doc.title ?? ""]),
        description: joined([doc.seo?.metaDescription ?? ""]),
        body: joined(collectText(doc, pageBody, componentsOf, [])),
      }),
    },
    [ARTICLE]: {
      type: "article",
      populate: { category: { fields: ["name"] }, author: { fields: ["name"] } },
      entry: (doc) => ({
        title: joined([doc.title ?? ""]),
        description: joined([doc.excerpt ?? ""]),
        body: joined([
          ...collectText(doc, articleBody, componentsOf, []),
          doc.category?.name ?? "",
          doc.author?.name ?? "",
        ]),
      }),
    },
  };
}

module.exports = { sources, populateOf, LINKED, PAGE, ARTICLE };
