import { useId } from "react";

import { CmsImage } from "../cms-image.tsx";
import { SectionLinkView } from "./section-parts.tsx";
import type { Logo, LogoCloudSection } from "./types.ts";

/** One logo: its image (alt: the image's alternative text, else the name), or the name when there is no image. */
function LogoView({ logo }: { logo: Logo }) {
  // A linked logo: the image is the link's only content, so its alt text names the link.
  const content = logo.image ? <CmsImage media={{ ...logo.image, alt: logo.image.alt || logo.name }} /> : logo.name;
  return logo.link ? <SectionLinkView link={logo.link}>{content}</SectionLinkView> : <>{content}</>;
}

/** Logos of customers or partners. */
export function LogoCloud({ section }: { section: LogoCloudSection }) {
  const headingId = useId();
  if (section.logos.length === 0) return null;
  return (
    <section className="section section-logo-cloud" aria-labelledby={section.heading ? headingId : undefined}>
      {section.heading && <h2 id={headingId}>{section.heading}</h2>}
      <ul className="logo-cloud">
        {section.logos.map((logo, index) => (
          <li key={index}>
            <LogoView logo={logo} />
          </li>
        ))}
      </ul>
    </section>
  );
}
