import { useId } from "react";

import { CmsImage } from "../cms-image.tsx";
import { Paragraphs, SectionLinks } from "./section-parts.tsx";
import type { HeroSection } from "./types.ts";

/** The page's opening section: heading, text, call-to-action links and an image. */
export function Hero({ section }: { section: HeroSection }) {
  const headingId = useId();
  return (
    <section className="section section-hero" aria-labelledby={headingId}>
      <div className="section-hero-text">
        <h2 id={headingId}>{section.heading}</h2>
        <Paragraphs text={section.text} />
        <SectionLinks links={section.links} />
      </div>
      {section.image && (
        <div className="section-hero-media">
          <CmsImage media={section.image} />
        </div>
      )}
    </section>
  );
}
