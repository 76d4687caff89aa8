"use strict";

/**
 * The searchable text of a document, from its populated attributes and their schemas: every
 * string and text attribute, the text of Strapi's blocks (rich text), of components and dynamic
 * zone entries, recursively. Not text: enumerations, addresses (attributes named in NOT_TEXT),
 * media, relations (the caller adds the ones it wants: an article's category and author).
 * Control characters are removed: the index marks matches with two of them (MARK_START, MARK_END).
 */
const NOT_TEXT = new Set(["url", "href", "slug", "fullPath", "anchor", "icon"]);
const MARK_START = "\u0002";
const MARK_END = "\u0003";

const clean = (text) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ");

function blocksText(blocks, out) {
  for (const node of Array.isArray(blocks) ? blocks : []) {
    if (!node || typeof node !== "object") continue;
    if (typeof node.text === "string" && node.text.trim()) out.push(node.text);
    if (node.type === "image" && typeof node.image?.alternativeText === "string") out.push(node.image.alternativeText);
    if (Array.isArray(node.children)) blocksText(node.children, out);
  }
}

/** Text of `value` read with `attributes` (a schema's), appended to `out`. `componentsOf(uid)`: a component's attributes. */
function collectText(value, attributes, componentsOf, out) {
  if (!value || typeof value !== "object") return out;
  for (const [name, attribute] of Object.entries(attributes)) {
    const field = value[name];
    if (field === null || field === undefined || NOT_TEXT.has(name)) continue;
    switch (attribute.type) {
      case "string":
      case "text":
      case "richtext":
        if (typeof field === "string" && field.trim()) out.push(field);
        break;
      case "blocks":
        blocksText(field, out);
        break;
      case "component":
        for (const entry of attribute.repeatable ? field : [field]) {
          collectText(entry, componentsOf(attribute.component), componentsOf, out);
        }
        break;
      case "dynamiczone":
        for (const entry of Array.isArray(field) ? field : []) {
          if (entry?.__component) collectText(entry, componentsOf(entry.__component), componentsOf, out);
        }
        break;
      default:
        break;
    }
  }
  return out;
}

const joined = (parts) => clean(parts.join("\n")).trim();

module.exports = { collectText, joined, clean, MARK_START, MARK_END };
