import { expect, test, type APIRequestContext } from "@playwright/test";

import { StrapiAdmin } from "../support/strapi-admin.ts";
import { e2eEnv } from "../support/e2e-env.ts";

// hreflang alternates and the sitemap follow editors' publishes in the real Strapi, through the
// CMS's own revalidation (its page type tag and document tag): this spec never calls
// /api/cms-revalidate itself. Both projects run it, each with pages of its own.

const PAGES = "/content-manager/collection-types/api::page.page";
type Json = Record<string, any>;

async function cm(method: string, path: string, body?: unknown): Promise<Json> {
  const admin = await StrapiAdmin.login(e2eEnv("E2E_CMS_URL"));
  return (await admin.call(method, path, body)) as Json;
}

/** Polls pairs of requests until the second one's body passes `predicate` (the CMS's call has landed). */
async function shows(request: APIRequestContext, path: string, predicate: (body: string) => boolean) {
  await expect
    .poll(
      async () => {
        await request.get(path);
        return predicate(await (await request.get(path)).text());
      },
      { timeout: 15_000, intervals: [250, 500] },
    )
    .toBe(true);
}

const hreflang = (html: string, locale: string) =>
  new RegExp(`<link rel="alternate" hreflang="${locale}" href="([^"]*)"`, "i").exec(html)?.[1] ?? null;

test("a published translation gets an hreflang alternate and a sitemap entry; a draft or unpublished one not", async ({
  page,
  request,
  baseURL,
}, info) => {
  const slug = `e2e-seo-${info.project.name}-${Date.now().toString(36)}`;
  const { data: created } = await cm("POST", `${PAGES}?locale=en`, { title: `SEO ${slug}`, slug });
  const id = created.documentId as string;
  try {
    await cm("POST", `${PAGES}/${id}/actions/publish?locale=en`, {});
    await shows(request, "/sitemap.xml", (xml) => xml.includes(`<loc>${baseURL}/${slug}</loc>`));

    // A German draft: not published, so no alternate and no sitemap entry.
    await cm("PUT", `${PAGES}/${id}?locale=de`, { title: `SEO DE ${slug}`, slug: `${slug}-de` });
    const draft = await (await request.get(`/${slug}`)).text();
    expect(hreflang(draft, "de")).toBeNull();

    await cm("POST", `${PAGES}/${id}/actions/publish?locale=de`, {});
    await shows(request, `/${slug}`, (html) => hreflang(html, "de") === `${baseURL}/de/${slug}-de`);
    await shows(request, "/sitemap.xml", (xml) => xml.includes(`<loc>${baseURL}/de/${slug}-de</loc>`));
    await page.goto(`/${slug}`);
    await expect(page.locator('head link[rel="alternate"][hreflang="de"]')).toHaveAttribute(
      "href",
      `${baseURL}/de/${slug}-de`,
    );
    await expect(page.locator('head link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute(
      "href",
      `${baseURL}/${slug}`,
    );
    await page.goto(`/de/${slug}-de`);
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/de/${slug}-de`);
    await expect(page.locator('head link[rel="alternate"][hreflang="en"]')).toHaveAttribute(
      "href",
      `${baseURL}/${slug}`,
    );

    await cm("POST", `${PAGES}/${id}/actions/unpublish?locale=de`, {});
    await shows(request, `/${slug}`, (html) => hreflang(html, "de") === null);
    await shows(
      request,
      "/sitemap.xml",
      (xml) => !xml.includes(`${slug}-de`) && xml.includes(`<loc>${baseURL}/${slug}</loc>`),
    );
  } finally {
    for (const locale of ["de", "en"]) await cm("DELETE", `${PAGES}/${id}?locale=${locale}`).catch(() => undefined);
  }
  await shows(request, "/sitemap.xml", (xml) => !xml.includes(slug));
});
