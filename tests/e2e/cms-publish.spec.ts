import { expect, test, type APIRequestContext } from "@playwright/test";

import { StrapiAdmin } from "../support/strapi-admin.ts";
import { e2eEnv } from "../support/e2e-env.ts";

// Editor writes in the real Strapi reach the cached site through the CMS's own revalidation
// (document middleware → POST /api/cms-revalidate): this spec never calls that route itself.
// Both projects run it: every page it creates is unique per project, and the seeded navbar is
// put back (and served again) before the test ends.

const cmsUrl = () => e2eEnv("E2E_CMS_URL");
const PAGES = "/content-manager/collection-types/api::page.page";
type Json = Record<string, any>;

/** The content-manager call of the shared admin session (one admin login per worker). */
async function cm(method: string, path: string, body?: unknown): Promise<Json> {
  const admin = await StrapiAdmin.login(cmsUrl());
  return (await admin.call(method, path, body)) as Json;
}

async function createPage(data: Json, parent?: string): Promise<string> {
  const body = { ...data, ...(parent ? { parent: { connect: [{ documentId: parent, locale: "en" }] } } : {}) };
  const { data: created } = await cm("POST", `${PAGES}?locale=en`, body);
  await cm("POST", `${PAGES}/${created.documentId}/actions/publish?locale=en`, {});
  return created.documentId;
}

const deletePage = (documentId: string) => cm("DELETE", `${PAGES}/${documentId}?locale=en`);

/**
 * The change is visible on the second request at most once the CMS's revalidation has arrived
 * (it is sent right after the write commits): polls pairs of requests, the second must match.
 * The cache intervals are minutes, so only the CMS's call can make this pass within seconds.
 */
async function shows(request: APIRequestContext, path: string, predicate: (status: number, html: string) => boolean) {
  await expect
    .poll(
      async () => {
        await request.get(path, { maxRedirects: 0 });
        const second = await request.get(path, { maxRedirects: 0 });
        return predicate(second.status(), await second.text());
      },
      { timeout: 15_000, intervals: [250, 500] },
    )
    .toBe(true);
}

/**
 * After a takedown (unpublish): the old answer is served as before (HIT) until the CMS's
 * revalidation arrives, then a fresh 404 at once. Never the old page once more as STALE: the
 * CMS sends takedowns with `expire`, and the site expires the page instead of marking it stale.
 */
async function takenDown(request: APIRequestContext, path: string) {
  const seen: string[] = [];
  await expect
    .poll(
      async () => {
        const answer = await request.get(path, { maxRedirects: 0 });
        seen.push(`${answer.status()} ${answer.headers()["x-cache"]}`);
        return answer.status();
      },
      { timeout: 15_000, intervals: [100] },
    )
    .toBe(404);
  expect(
    seen.filter((answer) => answer.endsWith("STALE")),
    seen.join(", "),
  ).toEqual([]);
  expect(seen.at(-1)).toBe("404 MISS");
}

const slugFor = (name: string, project: string) => `e2e-${name}-${project}-${Date.now().toString(36)}`;

test("a new page (was a 404), its edit and its unpublish (404 again, at once) reach the site by themselves", async ({
  request,
}, info) => {
  const slug = slugFor("publish", info.project.name);
  const path = `/${slug}`;
  const missing = await request.get(path);
  expect(missing.status()).toBe(404);
  await request.get(path); // a cached 404, if the site caches them

  const id = await createPage({ title: `Fresh ${slug}`, slug });
  await shows(request, path, (status, html) => status === 200 && html.includes(`Fresh ${slug}`));

  await cm("POST", `${PAGES}/${id}/actions/publish?locale=en`, { title: `Edited ${slug}` });
  await shows(request, path, (status, html) => status === 200 && html.includes(`Edited ${slug}`));

  await cm("POST", `${PAGES}/${id}/actions/unpublish?locale=en`, {});
  await takenDown(request, path);
  await deletePage(id);
});

test("a navbar change reaches two cached pages; the seeded navbar is put back", async ({ request }, info) => {
  const admin = await StrapiAdmin.login(cmsUrl());
  // Put back as it was: the seed's links are references, with a drop-down (docs/links.md).
  const seeded = await admin.links("api::navbar.navbar", "en");
  for (const path of ["/positions", "/company/careers"]) await request.get(path);
  const label = `Press ${info.project.name} ${Date.now().toString(36)}`;
  try {
    await admin.setLinks("api::navbar.navbar", "en", [...seeded, { label, url: "/company" }]);
    for (const path of ["/positions", "/company/careers"])
      await shows(request, path, (status, html) => status === 200 && html.includes(label));
  } finally {
    await admin.setLinks("api::navbar.navbar", "en", seeded);
    for (const path of ["/positions", "/company/careers"])
      await shows(request, path, (status, html) => status === 200 && !html.includes(label));
  }
});

test("a page move: the children's new URLs work, the old ones redirect", async ({ request }, info) => {
  const a = slugFor("from", info.project.name);
  const b = slugFor("to", info.project.name);
  const from = await createPage({ title: `From ${a}`, slug: a });
  const to = await createPage({ title: `To ${b}`, slug: b });
  const child = await createPage({ title: `Child of ${a}`, slug: "team" }, from);
  const grandchild = await createPage({ title: `Grandchild of ${a}`, slug: "lead" }, child);
  try {
    for (const path of [`/${a}/team`, `/${a}/team/lead`]) {
      await shows(request, path, (status) => status === 200); // cached under the old URL
    }

    await cm("POST", `${PAGES}/${child}/actions/publish?locale=en`, {
      parent: { connect: [{ documentId: to, locale: "en" }] },
    });

    await shows(request, `/${b}/team`, (status, html) => status === 200 && html.includes(`Child of ${a}`));
    await shows(request, `/${b}/team/lead`, (status, html) => status === 200 && html.includes(`Grandchild of ${a}`));
    const pairs: Array<[string, string]> = [
      [`/${a}/team`, `/${b}/team`],
      [`/${a}/team/lead`, `/${b}/team/lead`],
    ];
    for (const [oldPath, newPath] of pairs) {
      await shows(request, oldPath, (status) => status === 308);
      const moved = await request.get(oldPath, { maxRedirects: 0 });
      expect(moved.status()).toBe(308);
      expect(new URL(moved.headers().location ?? "", "http://x").pathname).toBe(newPath);
      const followed = await request.get(oldPath);
      expect(followed.status()).toBe(200);
      expect(new URL(followed.url()).pathname).toBe(newPath);
    }
  } finally {
    for (const id of [grandchild, child, to, from]) await deletePage(id).catch(() => undefined);
  }
});

test("a redirect an editor publishes answers at once; unpublished, the path is a 404 again at once", async ({
  request,
}, info) => {
  const REDIRECTS = "/content-manager/collection-types/api::redirect.redirect";
  const slug = slugFor("redirect", info.project.name);
  const path = `/${slug}`;
  expect((await request.get(path, { maxRedirects: 0 })).status()).toBe(404);
  await request.get(path, { maxRedirects: 0 }); // cached as a 404

  const { data: created } = await cm("POST", REDIRECTS, {
    source: `/en${path}`,
    destination: "/positions",
    permanent: false,
  });
  await cm("POST", `${REDIRECTS}/${created.documentId}/actions/publish`, {});
  await shows(request, path, (status) => status === 307);
  const answer = await request.get(path, { maxRedirects: 0 });
  expect(answer.headers().location).toBe("/positions");

  await cm("POST", `${REDIRECTS}/${created.documentId}/actions/unpublish`, {});
  await takenDown(request, path);
  await cm("DELETE", `${REDIRECTS}/${created.documentId}`);
});
