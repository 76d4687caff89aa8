import { useId } from "react";

import { CmsImage } from "../cms-image.tsx";
import { Paragraphs, SectionLinkView } from "./section-parts.tsx";
import type { MediaWithTextSection } from "./types.ts";

/** An image beside a heading and text; `imagePosition` puts the image left or right (wide screens). */
export function MediaWithText({ section }: { section: MediaWithTextSection }) {
  const headingId = useId();
  return (
    <section
      className={`section section-media-text section-media-text-${section.imagePosition}`}
      aria-labelledby={section.heading ? headingId : undefined}
    >
      {section.image && (
        <div className="section-media-text-media">
          <CmsImage media={section.image} />
        </div>
      )}
      <div className="section-media-text-text">
        {section.heading && <h2 id={headingId}>{section.heading}</h2>}
        <Paragraphs text={section.text} />
        {section.link && (
          <p>
            <SectionLinkView link={section.link} />
          </p>
        )}
      </div>
    </section>
  );
}
