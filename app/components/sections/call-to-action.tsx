import { useId } from "react";

import { Paragraphs, SectionLinks } from "./section-parts.tsx";
import type { CallToActionSection } from "./types.ts";

/** A heading, a line of text and the links to act on. */
export function CallToAction({ section }: { section: CallToActionSection }) {
  const headingId = useId();
  return (
    <section className="section section-cta" aria-labelledby={headingId}>
      <h2 id={headingId}>{section.heading}</h2>
      <Paragraphs text={section.text} />
      <SectionLinks links={section.links} />
    </section>
  );
}
