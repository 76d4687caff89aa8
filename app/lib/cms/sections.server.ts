import type { BlocksContent } from "@strapi/blocks-react-renderer";
import * as z from "zod";

import type { Card, FormSection, Logo, Section, SectionImage, SectionLink } from "../../components/sections/types.ts";
import type { LocaleConfig } from "../locale-path.ts";
import { t } from "../i18n/messages.ts";
import { MAX_FIELDS } from "../forms/form-fields.ts";
import type { Log } from "../log.ts";
import { cmsLinkSchema, LINK_POPULATE, resolveCmsLink, type CmsLink } from "./links.server.ts";
import { imageAttributes, withBodyMedia, type MediaBase, type MediaFile } from "./media.ts";
import { imagePlacementFields, placedImage } from "./placed-alt.ts";

/**
 * A page's `sections` dynamic zone (docs/cms-contract.md, "Sections"): the zod schema of each
 * section type the site knows, the populate that asks Strapi for all of them with their media,
 * and `prepareSections`, which turns the CMS's sections into what the components render
 * (app/components/sections/types.ts). A section of any other type passes validation as
 * `{ __component, unknown: true, fields }`: a content type's (app/content-types/) when one brings
 * it (the page's loader checks and prepares it through `contentTypeSection`); otherwise it is
 * logged once per type and renders nothing.
 */

/** The media fields a section's image needs (srcset, variants, box, alt, version). */
const MEDIA_FIELDS = ["url", "alternativeText", "width", "height", "formats", "mime", "updatedAt"];
const media = { fields: MEDIA_FIELDS };
const nested = (populate: Record<string, unknown>) => ({ populate });

/** `populate[sections][on][<component>]…`: Strapi 5 needs each component of a dynamic zone named. */
export const SECTIONS_POPULATE = {
  on: {
    "sections.hero": nested({ image: media, links: LINK_POPULATE }),
    "sections.rich-text": true,
    "sections.media-with-text": nested({ image: media, link: LINK_POPULATE }),
    "sections.call-to-action": nested({ links: LINK_POPULATE }),
    "sections.card-grid": nested({ cards: nested({ image: media, link: LINK_POPULATE }) }),
    "sections.faq": nested({ items: true }),
    "sections.quote": nested({ image: media }),
    "sections.logo-cloud": nested({ logos: nested({ image: media }) }),
    "sections.form": nested({ fields: true }),
  },
} as const;

const text = z
  .string()
  .nullish()
  .transform((value) => (value?.trim() ? value : null));
/** An image field of a CMS answer (sections, articles' covers): null when empty. */
export const mediaSchema = z
  .object({
    url: z.string(),
    alternativeText: z.string().nullish(),
    width: z.number().nullish(),
    height: z.number().nullish(),
    mime: z.string().nullish(),
    formats: z.record(z.string(), z.unknown()).nullish(),
    updatedAt: z.string().nullish(),
  })
  .nullish()
  .transform((file): MediaFile | null => file ?? null);
const linkSchema = cmsLinkSchema;
const optionalLink = linkSchema.nullish().transform((link) => link ?? null);
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((items) => items ?? []);

const KNOWN = {
  "sections.hero": z
    .object({ heading: z.string(), text, image: mediaSchema, ...imagePlacementFields, links: list(linkSchema) })
    .transform(placedImage),
  "sections.rich-text": z.object({
    body: z
      .array(z.looseObject({ type: z.string() }))
      .nullish()
      .transform((blocks) => (blocks ?? []) as unknown as BlocksContent),
  }),
  "sections.media-with-text": z
    .object({
      heading: text,
      text,
      image: mediaSchema,
      imageAlt: imagePlacementFields.imageAlt,
      imagePosition: z
        .enum(["left", "right"])
        .nullish()
        .transform((position) => position ?? "left"),
      link: optionalLink,
    })
    .transform(placedImage),
  "sections.call-to-action": z.object({ heading: z.string(), text, links: list(linkSchema) }),
  "sections.card-grid": z.object({
    heading: text,
    cards: list(
      z
        .object({ title: z.string(), text, image: mediaSchema, ...imagePlacementFields, link: optionalLink })
        .transform(placedImage),
    ),
  }),
  "sections.faq": z.object({ heading: text, items: list(z.object({ question: z.string(), answer: z.string() })) }),
  "sections.quote": z
    .object({ quote: z.string(), author: text, role: text, image: mediaSchema, ...imagePlacementFields })
    .transform(placedImage),
  "sections.logo-cloud": z.object({
    heading: text,
    logos: list(z.object({ name: z.string(), image: mediaSchema, url: text })),
  }),
  "sections.form": z.object({
    // A component's id: which form of the page a post is for (app/lib/forms/form-post.server.ts).
    id: z.number().int(),
    formName: z.string(),
    heading: text,
    intro: text,
    fields: list(
      z.object({
        name: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/),
        label: z.string(),
        type: z.enum(["text", "email", "textarea", "select", "checkbox"]),
        required: z
          .boolean()
          .nullish()
          .transform((required) => required ?? false),
        options: text,
        errorMessage: text,
      }),
    ),
    consentText: text,
    submitLabel: text,
    successMessage: text,
    successPath: text,
  }),
} satisfies Record<string, z.ZodType>;

type KnownType = keyof typeof KNOWN;
export type CmsSection =
  | { [K in KnownType]: { __component: K } & z.output<(typeof KNOWN)[K]> }[KnownType]
  | { __component: string; unknown: true; fields: Record<string, unknown> };

const isKnown = (type: string): type is KnownType => Object.hasOwn(KNOWN, type);

/** One entry of the dynamic zone: a known section checked against its schema, any other kept as unknown. */
const sectionSchema = z.looseObject({ __component: z.string() }).transform((raw, ctx): CmsSection => {
  const type = raw.__component;
  if (!isKnown(type)) return { __component: type, unknown: true, fields: raw };
  const parsed = KNOWN[type].safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, message: `${type}: ${issue.message}` });
    return z.NEVER;
  }
  return { __component: type, ...parsed.data } as CmsSection;
});

/** The page's `sections` field: `null` or missing (a page saved before sections existed) → `[]`. */
export const sectionsSchema = z
  .array(sectionSchema)
  .nullish()
  .transform((sections) => sections ?? []);

/** At most this many section types are remembered as logged: a CMS can't make the set grow without end. */
export const LOGGED_TYPES_LIMIT = 100;
const loggedTypes = new Set<string>();

/** Logs an unknown section type, once per type while the set has room (then no more: never a flood). */
function logUnknownType(type: string, log: Pick<Log, "warn">) {
  if (loggedTypes.has(type) || loggedTypes.size >= LOGGED_TYPES_LIMIT) return;
  loggedTypes.add(type);
  log.warn(
    `[cms] a page has a section of unknown type "${type.slice(0, 100)}": rendered as nothing ` +
      `(app/components/sections/registry.tsx has no component for it)`,
  );
}

/** For tests: forget which unknown types were logged. */
export function resetLoggedSectionTypes() {
  loggedTypes.clear();
}

export interface PrepareOptions {
  base: MediaBase;
  locale: string;
  config: LocaleConfig;
  /** Images already on the page above the sections (the body's): the first image of the page loads at once, the rest lazily. */
  imagesBefore: number;
  /** A section some content type brings, by its index, ready to render (app/content-types/modules.server.ts); null for none. */
  contentTypeSection?: (index: number) => Section | null;
  /** The page's address (a form posts to it) and the bot check's token of each form section. */
  forms?: { action: string; tokenFor: (sectionId: number) => string };
  /** Where refused links and unknown section types are reported (the request's logger). */
  log: Pick<Log, "warn">;
}

/**
 * The `sizes` of each kind of section image, from the layout (app/styles/sections.css: a 72rem
 * column less 1.5rem margins; the hero and media-with-text two columns from 48rem, card grids two
 * from 40rem and three from 64rem, a 1.5rem gap). Measured in Chromium at 375, 768 and 1280 px:
 * hero and media-with-text (`half`: beside their text) 327, 348, 564; a card's image 293, 314, 334.
 */
export const SECTION_IMAGE_SIZES = {
  half: "(min-width: 75rem) 35.25rem, (min-width: 48rem) calc(50vw - 2.25rem), calc(100vw - 3rem)",
  card: "(min-width: 75rem) 21rem, (min-width: 64rem) calc(33vw - 4rem), (min-width: 40rem) calc(50vw - 4.5rem), calc(100vw - 5rem)",
  portrait: "6rem",
  logo: "10rem",
} as const;

/** The sections as the components render them (app/components/sections/types.ts). */
export function prepareSections(sections: readonly CmsSection[], options: PrepareOptions): Section[] {
  let images = options.imagesBefore;
  const image = (file: MediaFile | null, sizes: string): SectionImage => {
    if (!file) return null;
    const attributes = imageAttributes(file, { base: options.base, lazy: images > 0, sizes });
    if (attributes) images++;
    return attributes;
  };
  const link = (value: CmsLink | null | undefined) =>
    value ? resolveCmsLink(value, options.locale, options.config, options.log) : null;
  const links = (values: CmsLink[]) => values.map(link).filter((value): value is SectionLink => value !== null);

  return sections.map((section, index): Section => {
    if ("unknown" in section) {
      const prepared = options.contentTypeSection?.(index);
      if (prepared) return prepared;
      logUnknownType(section.__component, options.log);
      return { __component: section.__component, unknown: true };
    }
    switch (section.__component) {
      case "sections.hero":
        return { ...section, image: image(section.image, SECTION_IMAGE_SIZES.half), links: links(section.links) };
      case "sections.rich-text": {
        // Eager and first only when nothing above it on the page had an image.
        const body = withBodyMedia(section.body, options.base, images);
        images += body.filter((node) => node.type === "image" && "media" in node && node.media).length;
        return { ...section, body };
      }
      case "sections.media-with-text":
        return { ...section, image: image(section.image, SECTION_IMAGE_SIZES.half), link: link(section.link) };
      case "sections.call-to-action":
        return { ...section, links: links(section.links) };
      case "sections.card-grid":
        return {
          ...section,
          cards: section.cards.map((card): Card => ({
            ...card,
            image: image(card.image, SECTION_IMAGE_SIZES.card),
            link: link(card.link),
          })),
        };
      case "sections.faq":
        return section;
      case "sections.quote":
        return { ...section, image: image(section.image, SECTION_IMAGE_SIZES.portrait) };
      case "sections.logo-cloud":
        return {
          ...section,
          logos: section.logos.map((logo): Logo => ({
            name: logo.name,
            image: image(logo.image, SECTION_IMAGE_SIZES.logo),
            link: logo.url ? link({ label: logo.name, url: logo.url }) : null,
          })),
        };
      case "sections.form":
        return prepareForm(section, options);
    }
  });
}

export { resolveSectionLink } from "./links.server.ts";

/** A form section as its component renders it: no address to mail, no thank-you (the action's). */
export function prepareForm(
  section: Extract<CmsSection, { __component: "sections.form" }>,
  options: PrepareOptions,
): FormSection {
  return {
    __component: "sections.form",
    id: section.id,
    heading: section.heading,
    intro: section.intro,
    fields: section.fields.slice(0, MAX_FIELDS).map((field) => ({
      name: field.name,
      label: field.label,
      type: field.type,
      required: field.required,
      options: field.type === "select" ? choicesOf(field.options) : [],
      errorMessage: field.errorMessage,
    })),
    consentText: section.consentText,
    submitLabel: section.submitLabel ?? t(options.locale, "form.submit"),
    action: options.forms?.action ?? "",
    formToken: options.forms?.tokenFor(section.id) ?? "",
    locale: options.locale,
  };
}

/** A choice's options: the CMS's text, one per line, blank lines and repeats left out. */
export function choicesOf(text: string | null): string[] {
  return [
    ...new Set(
      (text ?? "")
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ].slice(0, 50);
}
