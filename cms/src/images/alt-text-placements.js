"use strict";

/**
 * Where an editor places an image, and what its alternative text is there (docs/cms-contract.md,
 * "Alternative text"; docs/decisions/0040-live-preview-and-alt-text.md). Each placement has its own
 * alt field (`alt`: localized with the entry, so the German page says it in German) that falls back
 * to the file's alternative text in the Media Library; where an image may add nothing to the text
 * beside it (a hero's mood picture, a card's illustration, a quoted person's portrait next to
 * their name) a `decorative` switch says so, and the site renders `alt=""`.
 *
 * Not here, on purpose: the logo of a logo cloud (its name is its alt text when the file has none)
 * and the image blocks of a rich-text body, which carry the file's alternative text as it was
 * when the block was inserted (checked by `bodyImagesWithoutAlt`).
 */
const PLACEMENTS = {
  "sections.hero": { media: "image", alt: "imageAlt", decorative: "imageDecorative" },
  "elements.card": { media: "image", alt: "imageAlt", decorative: "imageDecorative" },
  "sections.quote": { media: "image", alt: "imageAlt", decorative: "imageDecorative" },
  // The section's subject: always informative.
  "sections.media-with-text": { media: "image", alt: "imageAlt" },
  // A share card (og:image:alt) has no text beside it that could stand in.
  "shared.seo": { media: "shareImage", alt: "shareImageAlt" },
  // The article's picture, above its text and in the feed.
  "api::article.article": { media: "cover", alt: "coverAlt" },
};

const filled = (value) => typeof value === "string" && value.trim() !== "";

/** The alternative text an image placed in `owner` (an entry or component) shows; "" when decorative. */
function placedAltText(owner, placement) {
  if (placement.decorative && owner[placement.decorative] === true) return "";
  if (filled(owner[placement.alt])) return owner[placement.alt].trim();
  return owner[placement.media]?.alternativeText?.trim() ?? "";
}

/** Whether an image placed in `owner` needs text it lacks: informative (not decorative) and without any. */
function lacksAltText(owner, placement) {
  if (!owner?.[placement.media]) return false;
  if (placement.decorative && owner[placement.decorative] === true) return false;
  return placedAltText(owner, placement) === "";
}

/** The image blocks of a blocks field (any depth) whose file had no alternative text. */
function bodyImagesWithoutAlt(nodes) {
  const found = [];
  const visit = (node) => {
    if (!node || typeof node !== "object") return;
    if (node.type === "image" && !filled(node.image?.alternativeText)) found.push(node.image?.name ?? "an image");
    for (const child of node.children ?? []) visit(child);
  };
  for (const node of Array.isArray(nodes) ? nodes : []) visit(node);
  return found;
}

/**
 * The `populate` that loads every placement's image (name and alternative text) of a schema, through
 * its components and dynamic zones, for the document service.
 */
function altTextPopulate(strapi, schema) {
  const populate = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (attribute.type === "media") populate[name] = { fields: ["name", "alternativeText"] };
    else if (attribute.type === "component")
      populate[name] = nested(altTextPopulate(strapi, strapi.components[attribute.component]));
    else if (attribute.type === "dynamiczone")
      populate[name] = {
        on: Object.fromEntries(
          attribute.components.map((uid) => [uid, nested(altTextPopulate(strapi, strapi.components[uid]))]),
        ),
      };
  }
  return populate;
}
const nested = (populate) => (Object.keys(populate).length > 0 ? { populate } : true);

/**
 * What lacks alternative text in `entry` (of `schema`, whose uid is `uid`), each as the path an
 * editor follows in the edit view and what to do: `["Sections › 2. Hero › image (team.jpg): …"]`.
 */
function missingAltText(strapi, uid, schema, entry, path = []) {
  const problems = [];
  const placement = PLACEMENTS[uid];
  if (placement && lacksAltText(entry, placement)) {
    const name = entry[placement.media].name ? ` (${entry[placement.media].name})` : "";
    const decorative = placement.decorative ? `, or switch on "${placement.decorative}" if it only decorates` : "";
    problems.push(
      `${[...path, placement.media].join(" › ")}${name}: write its "${placement.alt}"${decorative} (or give the file alternative text in the Media Library)`,
    );
  }
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const value = entry?.[name];
    if (value === null || value === undefined) continue;
    if (attribute.type === "blocks") {
      for (const image of bodyImagesWithoutAlt(value))
        problems.push(
          `${[...path, name].join(" › ")} › image (${image}): give the file alternative text in the Media Library, then insert the image again`,
        );
    } else if (attribute.type === "component") {
      const items = attribute.repeatable ? value : [value];
      items.forEach((item, index) => {
        const at = attribute.repeatable ? [...path, `${name} ${index + 1}`] : [...path, name];
        problems.push(...missingAltText(strapi, attribute.component, strapi.components[attribute.component], item, at));
      });
    } else if (attribute.type === "dynamiczone") {
      value.forEach((item, index) => {
        const component = strapi.components[item.__component];
        if (!component) return;
        const at = [...path, `${name} ${index + 1} (${component.info?.displayName ?? item.__component})`];
        problems.push(...missingAltText(strapi, item.__component, component, item, at));
      });
    }
  }
  return problems;
}

module.exports = { PLACEMENTS, altTextPopulate, bodyImagesWithoutAlt, lacksAltText, missingAltText, placedAltText };
