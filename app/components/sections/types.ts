import type { BlocksContent } from "@strapi/blocks-react-renderer";

import type { ImageAttributes } from "../../lib/cms/media.ts";

/**
 * A page's sections as the page's loader hands them to the components (app/lib/cms/sections.server.ts
 * `prepareSections`): images already turned into `<img>` attributes, links into safe, locale-aware
 * addresses. Shared by the server render and the browser's, so both agree.
 */

/** A CMS link ready to render: `internal` (a path on this site), `external` (http(s), rel set), `plain` (mailto:, tel:, #fragment). */
export interface SectionLink {
  label: string;
  href: string;
  kind: "internal" | "external" | "plain";
}

/** Null: no image, or one with no usable address (nothing is rendered for it). */
export type SectionImage = ImageAttributes | null;

export interface HeroSection {
  __component: "sections.hero";
  heading: string;
  text: string | null;
  image: SectionImage;
  links: SectionLink[];
}

export interface RichTextSection {
  __component: "sections.rich-text";
  body: BlocksContent;
}

export interface MediaWithTextSection {
  __component: "sections.media-with-text";
  heading: string | null;
  text: string | null;
  image: SectionImage;
  imagePosition: "left" | "right";
  link: SectionLink | null;
}

export interface CallToActionSection {
  __component: "sections.call-to-action";
  heading: string;
  text: string | null;
  links: SectionLink[];
}

export interface Card {
  title: string;
  text: string | null;
  image: SectionImage;
  link: SectionLink | null;
}

export interface CardGridSection {
  __component: "sections.card-grid";
  heading: string | null;
  cards: Card[];
}

export interface FaqItem {
  question: string;
  answer: string;
}

export interface FaqSection {
  __component: "sections.faq";
  heading: string | null;
  items: FaqItem[];
}

export interface QuoteSection {
  __component: "sections.quote";
  quote: string;
  author: string | null;
  role: string | null;
  image: SectionImage;
}

export interface Logo {
  name: string;
  image: SectionImage;
  link: SectionLink | null;
}

export interface LogoCloudSection {
  __component: "sections.logo-cloud";
  heading: string | null;
  logos: Logo[];
}

export interface FormField {
  /** Its name in submissions (posted as `field_<name>`: app/lib/forms/form-fields.ts). */
  name: string;
  label: string;
  type: "text" | "email" | "textarea" | "select" | "checkbox";
  required: boolean;
  /** A choice's options (the CMS's one per line); empty for other types. */
  options: string[];
  /** The editor's message for a wrong value; the built-in one of the locale otherwise. */
  errorMessage: string | null;
}

/** What the answer to a post shows in its form (the action's data): sent, or refused with messages. */
export interface FormState {
  sectionId: number;
  status: "sent" | "invalid" | "refused";
  /** The thank-you, or what went wrong as a whole (above the fields). */
  message: string;
  values: Record<string, string>;
  /** A message per field name (CONSENT_FIELD for the consent). */
  errors: Record<string, string>;
}

/** A form visitors send (app/lib/forms/, docs/forms.md): a plain HTML post to the page's own address. */
export interface FormSection {
  __component: "sections.form";
  /** The section's component id in the CMS: which form of the page a post is for. */
  id: number;
  heading: string | null;
  intro: string | null;
  fields: FormField[];
  consentText: string | null;
  /** The editor's, else the locale's "Send". */
  submitLabel: string;
  /** The page's address: the form posts to it. */
  action: string;
  /** The bot check's token (decision 0021), issued when the page was rendered. */
  formToken: string;
  /** The page's locale: the built-in words (button, marks, messages). */
  locale: string;
  /** Set on the answer to a post of this form. */
  state?: FormState;
}

/** A section of a type this site does not know (a CMS newer than the site): rendered as nothing. */
export interface UnknownSection {
  __component: string;
  unknown: true;
}

export type KnownSection =
  | HeroSection
  | RichTextSection
  | MediaWithTextSection
  | CallToActionSection
  | CardGridSection
  | FaqSection
  | QuoteSection
  | LogoCloudSection
  | FormSection;

/**
 * A section a content type brings (app/content-types/<name>/: `sections.latest-articles`, the
 * blog's): its own prepared fields, rendered by its own component (the type's sections.tsx).
 */
export interface ContentTypeSection {
  __component: string;
  unknown?: never;
}

export type Section = KnownSection | ContentTypeSection | UnknownSection;
