import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";

import { SECTION_COMPONENTS, sectionComponent, Sections, SectionView } from "./registry.tsx";
import type { Section } from "./types.ts";

const html = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

describe("the section registry", () => {
  it("has a component for every section type of the CMS's page dynamic zone but latest-articles (point 2)", async () => {
    const { default: schema } = await import("../../../cms/src/api/page/content-types/page/schema.json");
    const cmsTypes = (schema.attributes.sections.components as string[]).sort();
    expect(Object.keys(SECTION_COMPONENTS).sort()).toEqual(
      cmsTypes.filter((type) => type !== "sections.latest-articles"),
    );
  });

  it("looks types up by own keys only: unknown and prototype names have no component", () => {
    expect(sectionComponent("sections.hero")).toBe(SECTION_COMPONENTS["sections.hero"]);
    for (const type of ["sections.latest-articles", "constructor", "__proto__", "toString", ""]) {
      expect(sectionComponent(type), type).toBeNull();
    }
  });

  it("an unknown section renders nothing, the known ones around it in order", () => {
    const sections: Section[] = [
      { __component: "sections.call-to-action", heading: "First", text: null, links: [] },
      { __component: "sections.latest-articles", unknown: true },
      { __component: "sections.quote", quote: "Second", author: null, role: null, image: null },
    ];
    const out = html(<Sections sections={sections} />);
    expect(out).toMatch(
      /^<div class="sections"><section class="section section-cta"[^>]*>.*First.*<\/section><figure class="section section-quote">.*Second.*<\/figure><\/div>$/,
    );
    expect(html(<SectionView section={{ __component: "sections.latest-articles", unknown: true }} />)).toBe("");
    // Even a section whose type is known but was kept as unknown renders nothing.
    expect(html(<SectionView section={{ __component: "sections.hero", unknown: true }} />)).toBe("");
  });

  it("no sections: no wrapper", () => {
    expect(html(<Sections sections={[]} />)).toBe("");
  });
});
