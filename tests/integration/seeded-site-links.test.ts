import { describe, expect, it } from "vitest";

import { strapiSite } from "../support/strapi-site.ts";

// The demo site as a newcomer gets it (the real Strapi, seeded, and the production site): every
// link of its header and footer leads to a page, and the footer's "Imprint" / "Impressum" to the
// imprint, which the seed once pointed at the company page instead.
const site = strapiSite("seeded-site-links", { sharedCms: true });

const html = async (path: string) => {
  const response = await fetch(`${site.app.url}${path}`);
  return { status: response.status, body: await response.text() };
};

/** The links (label → href) inside the first `<tag …>…</tag>` of a page. */
function linksIn(body: string, tag: "header" | "footer"): Map<string, string> {
  const part = new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}>`).exec(body)?.[0] ?? "";
  return new Map([...part.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[2]!, m[1]!]));
}

describe("the seeded site's chrome links", () => {
  it.each([
    ["/", "Imprint", "/imprint"],
    ["/de", "Impressum", "/de/impressum"],
  ])("on %s, the footer's %s leads to the imprint page (200)", async (home, label, href) => {
    const page = await html(home);
    expect(page.status).toBe(200);
    expect(linksIn(page.body, "footer").get(label)).toBe(href);
    const imprint = await html(href);
    expect(imprint.status).toBe(200);
    expect(imprint.body).toMatch(new RegExp(`<h1[^>]*>${label}</h1>`));
  });

  it.each(["/", "/de"])("on %s, every header and footer link answers 200", async (home) => {
    const page = await html(home);
    const links = [...linksIn(page.body, "header"), ...linksIn(page.body, "footer")]
      .map(([, href]) => href)
      .filter((href) => href.startsWith("/") && !href.startsWith("//"));
    expect(links.length).toBeGreaterThan(3);
    for (const href of new Set(links)) expect((await html(href)).status, href).toBe(200);
  });
});
