import { useId } from "react";

import { Paragraphs } from "./section-parts.tsx";
import type { FaqSection } from "./types.ts";

/** Questions and answers: each a `<details>` the visitor opens and closes, no JavaScript needed. */
export function Faq({ section }: { section: FaqSection }) {
  const headingId = useId();
  if (section.items.length === 0) return null;
  return (
    <section className="section section-faq" aria-labelledby={section.heading ? headingId : undefined}>
      {section.heading && <h2 id={headingId}>{section.heading}</h2>}
      {section.items.map((item, index) => (
        <details key={index} className="faq-item">
          <summary>{item.question}</summary>
          <div className="faq-answer">
            <Paragraphs text={item.answer} />
          </div>
        </details>
      ))}
    </section>
  );
}
