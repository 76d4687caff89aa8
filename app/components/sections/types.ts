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
  | LogoCloudSection;

export type Section = KnownSection | UnknownSection;
