import { CmsImage } from "../cms-image.tsx";
import { Paragraphs } from "./section-parts.tsx";
import type { QuoteSection } from "./types.ts";

/** A quote or testimonial, with who said it (and their picture, when there is one). */
export function Quote({ section }: { section: QuoteSection }) {
  const hasSource = Boolean(section.author || section.role || section.image);
  return (
    <figure className="section section-quote">
      <blockquote>
        <Paragraphs text={section.quote} />
      </blockquote>
      {hasSource && (
        <figcaption>
          {section.image && <CmsImage media={section.image} />}
          {section.author && <cite>{section.author}</cite>}
          {section.author && section.role && ", "}
          {section.role && <span className="section-quote-role">{section.role}</span>}
        </figcaption>
      )}
    </figure>
  );
}
