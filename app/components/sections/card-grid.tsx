import { useId } from "react";

import { CmsImage } from "../cms-image.tsx";
import { Paragraphs, SectionLinkView } from "./section-parts.tsx";
import type { CardGridSection } from "./types.ts";

/**
 * Cards in a grid, each with image, title, text and link. The cards' titles are one level below
 * the grid's heading (h3), or h2 when the grid has none, so headings never skip a level.
 */
export function CardGrid({ section }: { section: CardGridSection }) {
  const headingId = useId();
  if (section.cards.length === 0 && !section.heading) return null;
  const CardTitle = section.heading ? "h3" : "h2";
  return (
    <section className="section section-card-grid" aria-labelledby={section.heading ? headingId : undefined}>
      {section.heading && <h2 id={headingId}>{section.heading}</h2>}
      <ul className="card-grid">
        {section.cards.map((card, index) => (
          <li key={index} className="card">
            {card.image && <CmsImage media={card.image} />}
            <CardTitle className="card-title">{card.title}</CardTitle>
            <Paragraphs text={card.text} />
            {card.link && (
              <p className="card-link">
                {/* The card's title in the link's name: a label such as "Read more" alone says not where to. */}
                <SectionLinkView link={card.link}>
                  {card.link.label}
                  <span className="visually-hidden">{`: ${card.title}`}</span>
                </SectionLinkView>
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
