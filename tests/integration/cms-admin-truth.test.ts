import { describe, expect, it } from "vitest";

import { getPage as get } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Issue 30, point 8: what the admin shows is what the CMS does, through the real Strapi and the
// production site. The page edit view's stored layout (fullPath read-only with its hint, the
// parent picker by path; also on a database whose layout was stored before), the parent picker
// offering no cycle and the save refusing one, a deleted page taking its redirects along (the old
// addresses answer 404 on the site, not a redirect to a 404), and the CDN purge offered only when
// there is one, refused with a message an editor can read otherwise.
const REVALIDATE_SECRET = "admin-truth-revalidate-secret-0123456789";
const PAGES = "/content-manager/collection-types/api::page.page";
const REDIRECTS = "/content-manager/collection-types/api::redirect.redirect";
const LAYOUT = "/content-manager/content-types/api::page.page/configuration";
type Json = Record<string, any>;

// No CDN purge secret on the CMS (a CMS with one: cms-admin-permission.test.ts).
const site = strapiSite("cms-admin-truth", {
  cmsEnv: () => ({ CMS_REVALIDATE_SECRET: REVALIDATE_SECRET }),
  appEnv: { CMS_REVALIDATE_SECRET: REVALIDATE_SECRET },
});
const admin = () => StrapiAdmin.login(site.cms.url);
const unique = (name: string) => `truth-${name}-${Date.now().toString(36)}`;

/** A new English page (under `parent`, a documentId), published; its documentId. */
async function publishedPage(slug: string, parent?: string): Promise<string> {
  const { data } = (await (
    await admin()
  ).call("POST", `${PAGES}?locale=en`, {
    title: `Page ${slug}`,
    slug,
    ...(parent ? { parent: { connect: [{ documentId: parent, locale: "en" }] } } : {}),
  })) as { data: { documentId: string } };
  await (await admin()).call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
  return data.documentId;
}

/** The redirects whose source is one of `sources`, as { source: destination }. */
async function redirectsFrom(sources: string[]): Promise<Record<string, string>> {
  const query = new URLSearchParams();
  sources.forEach((source, i) => query.set(`filters[source][$in][${i}]`, source));
  const { results } = (await (await admin()).call("GET", `${REDIRECTS}?${query}`)) as { results: Json[] };
  return Object.fromEntries(results.map((r) => [r.source, r.destination]));
}

async function storedLayout(): Promise<Json> {
  return ((await (await admin()).call("GET", LAYOUT)) as { data: { contentType: Json } }).data.contentType;
}

describe("the page edit view says what the CMS does", () => {
  it("fullPath is read-only with a hint, and the parent picker shows paths, in the stored layout", async () => {
    const { metadatas, settings } = await storedLayout();
    expect(metadatas.fullPath.edit).toMatchObject({
      editable: false,
      description: expect.stringContaining("Set by the CMS from the parent's path and the slug"),
    });
    expect(metadatas.parent.edit).toMatchObject({
      mainField: "fullPath",
      description: expect.stringContaining("not offered"),
    });
    // Strapi's own choices stay (the list's main field is still the title).
    expect(settings.mainField).toBe("title");
  });

  it("a fullPath typed in the edit view is not saved: the page keeps the path the CMS derives", async () => {
    const slug = unique("typed");
    const id = await publishedPage(slug);
    const { data } = (await (
      await admin()
    ).call("PUT", `${PAGES}/${id}?locale=en`, { title: "Typed", fullPath: "/somewhere-else" })) as { data: Json };
    expect(data.fullPath).toBe(`/${slug}`);
  });

  it("the parent picker offers neither the page nor a page below it, and lists candidates by path (children: nor above)", async () => {
    const top = await publishedPage(unique("top"));
    const middle = await publishedPage(unique("middle"), top);
    const bottom = await publishedPage(unique("bottom"), middle);
    const other = await publishedPage(unique("other"));
    const offered = async (documentId: string, field = "parent") => {
      const query = new URLSearchParams({ id: documentId, locale: "en", pageSize: "100", _q: "truth-" });
      const { results } = (await (
        await admin()
      ).call("GET", `/content-manager/relations/api::page.page/${field}?${query}`)) as { results: Json[] };
      return results;
    };

    const forTop = await offered(top);
    const ids = forTop.map((r) => r.documentId);
    expect(ids).toContain(other);
    expect(ids).not.toContain(top);
    expect(ids).not.toContain(middle);
    expect(ids).not.toContain(bottom);
    // By path: the candidates carry their fullPath, the field the picker shows.
    expect(forTop.find((r) => r.documentId === other)?.fullPath).toMatch(/^\/truth-other-/);

    // (Its current parent, top, is left out by Strapi itself: it is already chosen.)
    const forMiddle = (await offered(middle)).map((r) => r.documentId);
    expect(forMiddle).toContain(other);
    expect(forMiddle).not.toContain(middle);
    expect(forMiddle).not.toContain(bottom);

    // The children picker, the other way round: not the page, not a page above it.
    const childrenOfBottom = (await offered(bottom, "children")).map((r) => r.documentId);
    expect(childrenOfBottom).toContain(other);
    expect(childrenOfBottom).not.toContain(bottom);
    expect(childrenOfBottom).not.toContain(middle);
    expect(childrenOfBottom).not.toContain(top);
  });

  it("a save that would make a page its own ancestor is refused with a message, and nothing is written", async () => {
    const top = await publishedPage(unique("cycle-top"));
    const child = await publishedPage(unique("cycle-child"), top);
    const editor = await admin();
    await expect(
      editor.call("PUT", `${PAGES}/${top}?locale=en`, { parent: { connect: [{ documentId: child, locale: "en" }] } }),
    ).rejects.toThrow(/: 400 .*A page cannot be its own ancestor: choose another parent/);
    const { data } = (await editor.call("GET", `${PAGES}/${top}?locale=en`)) as { data: Json };
    expect(data.parent?.count ?? 0).toBe(0);
  });
});

describe("a deleted page takes its redirects along", () => {
  it("moved twice, then deleted: both old addresses answer 404 on the site, no redirect is left", async () => {
    const [first, second, third] = [unique("first"), unique("second"), unique("third")];
    const id = await publishedPage(first);
    const editor = await admin();
    await editor.updateAndPublishPage(id, "en", { slug: second });
    await editor.updateAndPublishPage(id, "en", { slug: third });
    // The moves' redirects, compacted: both old addresses go straight to the last one.
    expect(await redirectsFrom([`/en/${first}`, `/en/${second}`])).toEqual({
      [`/en/${first}`]: `/${third}`,
      [`/en/${second}`]: `/${third}`,
    });
    // Served by the site (and cached there), before the delete.
    await until(
      `/${first} to redirect to /${third}`,
      () => get(site.app.url, `/${first}`),
      (answer) => answer.status === 308 && answer.location === `/${third}`,
    );
    // A redirect into another page stays.
    const kept = unique("kept");
    await publishedPage(kept);
    const { data: keptRedirect } = (await editor.call("POST", REDIRECTS, {
      source: `/en/${unique("to-kept")}`,
      destination: `/${kept}`,
    })) as { data: Json };

    await editor.call("DELETE", `${PAGES}/${id}?locale=en`);

    expect(await redirectsFrom([`/en/${first}`, `/en/${second}`])).toEqual({});
    // The first requests after the admin's answer: the site heard of the removals before it.
    for (const old of [first, second, third]) {
      expect(await get(site.app.url, `/${old}`), `/${old}`).toMatchObject({ status: 404, location: null });
    }
    expect(await redirectsFrom([keptRedirect.source])).toEqual({ [keptRedirect.source]: keptRedirect.destination });
  }, 60_000);
});

describe("the CDN purge is offered only when there is a CDN", () => {
  it("without a CDN purge set up: the admin is told there is none, and a purge is refused in an editor's words", async () => {
    const editor = await admin();
    expect(await editor.call("GET", "/site-cache/capabilities")).toMatchObject({ data: { cdnPurge: false } });
    const refused = await editor.call("POST", "/site-cache/cdn-purge", { everything: true }).catch((e: Error) => e);
    expect(String(refused)).toMatch(/: 503 .*There is no CDN in front of this site, so there is nothing to purge\./);
    expect(String(refused)).not.toMatch(/CMS_CDN_PURGE_SECRET|CDN_PROVIDER|front end/);
  });
});

describe("the page edit view on a database whose layout was stored before", () => {
  it("an older stored layout (fullPath editable, parent by title): fixed on the next start, an admin's other choices kept", async () => {
    const editor = await admin();
    const { uid: _uid, ...stored } = await storedLayout();
    // What the admin's "Configure the view" sends back: no list mainField (Strapi refuses it).
    for (const field of Object.values(stored.metadatas) as Json[]) delete field.list?.mainField;
    // The layout as an older CMS left it, with an admin's own label on the title.
    stored.metadatas.fullPath.edit = { ...stored.metadatas.fullPath.edit, editable: true, description: "" };
    stored.metadatas.parent.edit = { ...stored.metadatas.parent.edit, mainField: "title", description: "" };
    stored.metadatas.title.edit = { ...stored.metadatas.title.edit, label: "Headline" };
    await editor.call("PUT", LAYOUT, stored);
    expect((await storedLayout()).metadatas.fullPath.edit.editable).toBe(true);

    await site.restartCms();
    const { metadatas } = await storedLayout();
    expect(metadatas.fullPath.edit).toMatchObject({ editable: false, description: expect.stringContaining("slug") });
    expect(metadatas.parent.edit.mainField).toBe("fullPath");
    expect(metadatas.title.edit.label).toBe("Headline");
  }, 240_000);
});
