import { readdirSync } from "node:fs";

import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";

import { CONTENT_TYPE_SECTION_COMPONENTS } from "../../content-types/section-components.ts";
import { SECTION_COMPONENTS, sectionComponent, Sections, SectionView } from "./registry.tsx";
import type { Section } from "./types.ts";

const html = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

describe("the section registry", () => {
  it("has a component for every section type of the CMS's page dynamic zone (every component of `sections`)", () => {
    const cmsTypes = readdirSync(new URL("../../../cms/src/components/sections/", import.meta.url))
      .filter((file) => file.endsWith(".json"))
      .map((file) => `sections.${file.slice(0, -".json".length)}`)
      .sort();
    const siteTypes = [...Object.keys(SECTION_COMPONENTS), ...Object.keys(CONTENT_TYPE_SECTION_COMPONENTS)];
    expect(siteTypes.sort()).toEqual(cmsTypes);
  });

  it("looks types up by own keys only: unknown and prototype names have no component", () => {
    expect(sectionComponent("sections.hero")).toBe(SECTION_COMPONENTS["sections.hero"]);
    // A content type's section (the blog's): found through the content types' registry.
    expect(sectionComponent("sections.latest-articles")).toBe(
      CONTENT_TYPE_SECTION_COMPONENTS["sections.latest-articles"],
    );
    expect(sectionComponent("sections.latest-articles")).not.toBeNull();
    for (const type of ["sections.countdown", "constructor", "__proto__", "toString", ""]) {
      expect(sectionComponent(type), type).toBeNull();
    }
  });

  it("an unknown section renders nothing, the known ones around it in order", () => {
    const sections: Section[] = [
      { __component: "sections.call-to-action", heading: "First", text: null, links: [] },
      { __component: "sections.countdown", unknown: true },
      { __component: "sections.quote", quote: "Second", author: null, role: null, image: null },
    ];
    const out = html(<Sections sections={sections} />);
    expect(out).toMatch(
      /^<div class="sections"><section class="section section-cta"[^>]*>.*First.*<\/section><figure class="section section-quote">.*Second.*<\/figure><\/div>$/,
    );
    expect(html(<SectionView section={{ __component: "sections.countdown", unknown: true }} />)).toBe("");
    // Even a section whose type is known but was kept as unknown renders nothing.
    expect(html(<SectionView section={{ __component: "sections.hero", unknown: true }} />)).toBe("");
  });

  it("no sections: no wrapper", () => {
    expect(html(<Sections sections={[]} />)).toBe("");
  });
});
