import { createElement, type ComponentType } from "react";

import { CONTENT_TYPE_SECTION_COMPONENTS } from "../../content-types/section-components.ts";
import { CallToAction } from "./call-to-action.tsx";
import { CardGrid } from "./card-grid.tsx";
import { Faq } from "./faq.tsx";
import { ContentForm } from "./form.tsx";
import { Hero } from "./hero.tsx";
import { LogoCloud } from "./logo-cloud.tsx";
import { MediaWithText } from "./media-with-text.tsx";
import { Quote } from "./quote.tsx";
import { RichText } from "./rich-text.tsx";
import type { KnownSection, Section } from "./types.ts";

type SectionType = KnownSection["__component"];

/**
 * The registry: each section component of the CMS (`__component`, cms/src/components/sections/)
 * and the React component that renders it. A type missing here renders nothing (the loader has
 * logged it once: app/lib/cms/sections.server.ts). These are the site's own sections, each with
 * its schema and populate in sections.server.ts and its type in types.ts; a section that belongs
 * to a content type (the blog's latest articles) is that type's (app/content-types/<name>/
 * sections.tsx and module.server.ts), and sectionComponent finds it too.
 */
export const SECTION_COMPONENTS: {
  [Type in SectionType]: ComponentType<{ section: Extract<KnownSection, { __component: Type }> }>;
} = {
  "sections.hero": Hero,
  "sections.rich-text": RichText,
  "sections.media-with-text": MediaWithText,
  "sections.call-to-action": CallToAction,
  "sections.card-grid": CardGrid,
  "sections.faq": Faq,
  "sections.quote": Quote,
  "sections.logo-cloud": LogoCloud,
  "sections.form": ContentForm,
};

/**
 * The component of a section's type, the site's or a content type's, or null for a type neither
 * has (own keys only).
 */
export function sectionComponent(type: string): ComponentType<{ section: Section }> | null {
  if (Object.hasOwn(SECTION_COMPONENTS, type)) {
    return SECTION_COMPONENTS[type as SectionType] as ComponentType<{ section: Section }>;
  }
  if (Object.hasOwn(CONTENT_TYPE_SECTION_COMPONENTS, type)) return CONTENT_TYPE_SECTION_COMPONENTS[type]!;
  return null;
}

/** One section through the registry: nothing for an unknown type. */
export function SectionView({ section }: { section: Section }) {
  const component = "unknown" in section ? null : sectionComponent(section.__component);
  // A component looked up, not made, here: createElement (the hooks lint reads any JSX of a
  // variable component as one created during render).
  return component ? createElement(component, { section }) : null;
}

/** A page's sections, in the editor's order. */
export function Sections({ sections }: { sections: readonly Section[] }) {
  if (sections.length === 0) return null;
  return (
    <div className="sections">
      {sections.map((section, index) => (
        <SectionView key={`${index}|${section.__component}`} section={section} />
      ))}
    </div>
  );
}
