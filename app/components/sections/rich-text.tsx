import { BlocksRenderer } from "@strapi/blocks-react-renderer";

import { BODY_BLOCKS } from "../cms-image.tsx";
import type { RichTextSection } from "./types.ts";

/** Formatted text from the blocks editor, rendered like a page body (images through cms-image.tsx). */
export function RichText({ section }: { section: RichTextSection }) {
  if (section.body.length === 0) return null;
  return (
    <section className="section section-rich-text">
      <BlocksRenderer content={section.body} blocks={BODY_BLOCKS} />
    </section>
  );
}
