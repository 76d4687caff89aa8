import type { ReactNode } from "react";
import { Link } from "react-router";

import type { SectionLink } from "./types.ts";

/**
 * A CMS link of a section (resolved in the loader: app/lib/cms/sections.server.ts
 * `resolveSectionLink`). A path on this site navigates client-side when JavaScript is on (a plain
 * link without it); an external one carries `rel="noopener noreferrer"`.
 */
export function SectionLinkView({
  link,
  className,
  children,
}: {
  link: SectionLink;
  className?: string;
  /** What the link shows instead of its label (a logo's image). */
  children?: ReactNode;
}) {
  const content = children ?? link.label;
  if (link.kind === "internal") {
    return (
      <Link to={link.href} className={className}>
        {content}
      </Link>
    );
  }
  return (
    <a href={link.href} className={className} rel={link.kind === "external" ? "noopener noreferrer" : undefined}>
      {content}
    </a>
  );
}

/** A section's links as a list; the first one is the primary action. Nothing when there are none. */
export function SectionLinks({ links }: { links: readonly SectionLink[] }) {
  if (links.length === 0) return null;
  return (
    <ul className="section-links">
      {links.map((link, index) => (
        <li key={`${index}|${link.href}`}>
          <SectionLinkView
            link={link}
            className={index === 0 ? "section-button" : "section-button section-button-secondary"}
          />
        </li>
      ))}
    </ul>
  );
}

/** A plain-text field of the CMS: a paragraph per blank-line-separated block (single line breaks kept by CSS). */
export function Paragraphs({ text }: { text: string | null }) {
  if (!text) return null;
  const blocks = text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
  return (
    <>
      {blocks.map((block, index) => (
        <p key={index} className="section-text">
          {block}
        </p>
      ))}
    </>
  );
}
