import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "get-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startCms, type CmsHandle } from "../support/cms-server.ts";

/**
 * The real Strapi on a fresh SQLite file: the seed gives the front end what it reads
 * (pages in en and de, navbar, footer, redirects) through the read-only token, nobody
 * anonymous or with that token can list users, and a second start changes nothing.
 */

/** A free port, picked once: the second start below must reuse it. */
let PORT = 0;
const TIMEOUT = 240_000;

type Json = Record<string, any>;

async function get(
  cms: CmsHandle,
  apiPath: string,
  token: string | null = cms.token,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${cms.url}${apiPath}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

async function getData(cms: CmsHandle, apiPath: string): Promise<any> {
  const { status, body } = await get(cms, apiPath);
  expect(status, `GET ${apiPath}: ${JSON.stringify(body)}`).toBe(200);
  return body.data;
}

/** Everything the seed creates that the front end can read, keyed for comparison. */
async function snapshot(cms: CmsHandle): Promise<Json> {
  const result: Json = {};
  for (const locale of ["en", "de"]) {
    const pages = await getData(
      cms,
      `/api/pages?locale=${locale}&pagination[pageSize]=100&sort=fullPath&populate[seo][populate]=shareImage`,
    );
    for (const page of pages) {
      result[`page ${locale} ${page.fullPath}`] = {
        documentId: page.documentId,
        updatedAt: page.updatedAt,
        publishedAt: page.publishedAt,
        title: page.title,
        shareImage: page.seo?.shareImage?.url,
      };
    }
    for (const single of ["navbar", "footer"]) {
      const data = await getData(cms, `/api/${single}?locale=${locale}&populate=links`);
      result[`${single} ${locale}`] = { documentId: data.documentId, updatedAt: data.updatedAt, links: data.links };
    }
    const errorPage = await getData(cms, `/api/error-page?locale=${locale}`);
    result[`error-page ${locale}`] = {
      documentId: errorPage.documentId,
      updatedAt: errorPage.updatedAt,
      publishedAt: errorPage.publishedAt,
      notFoundTitle: errorPage.notFoundTitle,
    };
  }
  for (const redirect of await getData(cms, "/api/redirects?sort=source")) {
    result[`redirect ${redirect.source}`] = {
      documentId: redirect.documentId,
      updatedAt: redirect.updatedAt,
      destination: redirect.destination,
      permanent: redirect.permanent,
    };
  }
  return result;
}

const pageAt = async (cms: CmsHandle, fullPath: string, locale: string) => {
  const query = `filters[fullPath][$eq]=${encodeURIComponent(fullPath)}&locale=${locale}&populate=seo`;
  const pages = await getData(cms, `/api/pages?${query}`);
  expect(pages, `pages at ${fullPath} (${locale})`).toHaveLength(1);
  return pages[0];
};

describe("CMS seed (real Strapi)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cms-seed-"));
  const dbFile = path.join(dir, "cms.db");
  const logFile = path.join(dir, "cms.log");
  let cms: CmsHandle | undefined;
  let first: Json;

  beforeAll(async () => {
    PORT = await getPort();
    cms = await startCms({ port: PORT, dbFile, fresh: true, logFile });
  }, TIMEOUT);

  afterAll(async () => {
    await cms?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  it("serves a health check and the locales", async () => {
    const health = await fetch(`${cms!.url}/_health`);
    expect(health.status).toBe(204);
    const { status, body } = await get(cms!, "/api/i18n/locales");
    expect(status).toBe(200);
    const locales = body as unknown as Array<{ code: string; isDefault: boolean }>;
    expect(locales.map((l) => l.code).sort()).toEqual(["de", "en"]);
    expect(locales.find((l) => l.isDefault)?.code).toBe("en");
  });

  it(
    "seeds the English pages with their derived full paths",
    async () => {
      const pages = await getData(cms!, "/api/pages?locale=en&pagination[pageSize]=100&sort=fullPath");
      expect(Object.fromEntries(pages.map((p: Json) => [p.fullPath, p.title]))).toEqual({
        "/": "Welcome to Acme",
        "/careers": "Careers",
        "/company": "Company",
        "/company/careers": "Careers at Acme",
        "/company/careers/engineering": "Engineering at Acme",
        "/jobs": "Open positions",
        "/jobs/backend-engineer": "Backend Engineer",
        "/jobs/frontend-engineer": "Frontend Engineer",
        "/jobs/product-designer": "Product Designer",
      });

      const careers = await pageAt(cms!, "/company/careers", "en");
      expect(careers.title).toBe("Careers at Acme");
      expect(careers.seo).toMatchObject({ metaTitle: "Careers at Acme | Acme" });
      expect(careers.seo.metaDescription).toEqual(expect.any(String));
      expect(careers.body.length).toBeGreaterThan(0);

      const engineering = await getData(
        cms!,
        "/api/pages?filters[fullPath][$eq]=/company/careers/engineering&locale=en" +
          "&populate[parent][populate][parent]=true",
      );
      expect(engineering[0].slug).toBe("engineering");
      expect(engineering[0].parent.fullPath).toBe("/company/careers");
      expect(engineering[0].parent.parent.fullPath).toBe("/company");
    },
    TIMEOUT,
  );

  it(
    "seeds the German pages as localizations of the English documents",
    async () => {
      const pages = await getData(cms!, "/api/pages?locale=de&pagination[pageSize]=100&sort=fullPath");
      expect(Object.fromEntries(pages.map((p: Json) => [p.fullPath, p.title]))).toEqual({
        "/": "Willkommen bei Acme",
        "/careers": "Karriere",
        "/company": "Unternehmen",
        "/company/careers": "Karriere bei Acme",
      });
      for (const fullPath of ["/", "/company", "/company/careers", "/careers"]) {
        const [en, de] = [await pageAt(cms!, fullPath, "en"), await pageAt(cms!, fullPath, "de")];
        expect(de.documentId, fullPath).toBe(en.documentId);
      }
    },
    TIMEOUT,
  );

  it(
    "seeds a share image in every page's SEO, readable with the read-only token and served by the CMS",
    async () => {
      for (const locale of ["en", "de"]) {
        const pages = await getData(
          cms!,
          `/api/pages?locale=${locale}&pagination[pageSize]=100&populate[seo][populate]=shareImage`,
        );
        for (const page of pages) {
          expect(page.seo.shareImage, `${locale} ${page.fullPath}`).toMatchObject({
            url: expect.stringMatching(/^\/uploads\/acme_share_\w+\.png$/),
            alternativeText: expect.any(String),
            width: 1200,
            height: 630,
            mime: "image/png",
          });
        }
        expect(new Set(pages.map((page: Json) => page.seo.shareImage.id)).size).toBe(1);
      }
      const [home] = await getData(
        cms!,
        "/api/pages?filters[fullPath][$eq]=/&locale=en&populate[seo][populate]=shareImage",
      );
      const image = await fetch(`${cms!.url}${home.seo.shareImage.url}`);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
    },
    TIMEOUT,
  );

  it(
    "seeds navbar, footer and redirects",
    async () => {
      const navEn = await getData(cms!, "/api/navbar?locale=en&populate=links");
      expect(navEn.links.map((l: Json) => [l.label, l.url])).toEqual([
        ["Home", "/"],
        ["Company", "/company"],
        ["Careers", "/company/careers"],
        ["Jobs", "/jobs"],
      ]);
      const navDe = await getData(cms!, "/api/navbar?locale=de&populate=links");
      expect(navDe.links.map((l: Json) => [l.label, l.url])).toEqual([
        ["Start", "/de"],
        ["Unternehmen", "/de/company"],
        ["Karriere", "/de/company/careers"],
      ]);
      const footerEn = await getData(cms!, "/api/footer?locale=en&populate=links");
      expect(footerEn.note).toBe("© Acme Inc.");
      expect(footerEn.links.map((l: Json) => [l.label, l.url])).toEqual([
        ["Imprint", "/company"],
        ["Jobs", "/jobs"],
      ]);
      expect((await getData(cms!, "/api/footer?locale=de&populate=links")).note).toBe("© Acme GmbH");

      const oldCareers = await getData(cms!, "/api/redirects?filters[source][$eq]=/en/old-careers");
      expect(oldCareers).toHaveLength(1);
      expect(oldCareers[0]).toMatchObject({ destination: "/company/careers", permanent: true });
      const jobsBoard = await getData(cms!, "/api/redirects?filters[source][$eq]=/en/jobs-board");
      expect(jobsBoard).toHaveLength(1);
      expect(jobsBoard[0]).toMatchObject({ destination: "/jobs", permanent: false });
    },
    TIMEOUT,
  );

  it("lets nobody list users: not the public, not the read-only token", async () => {
    expect((await get(cms!, "/api/users", null)).status).toBe(403);
    expect((await get(cms!, "/api/users")).status).toBe(403);
    // Content is readable only with the token.
    expect((await get(cms!, "/api/pages", null)).status).toBe(403);
    // The token is read-only.
    const write = await fetch(`${cms!.url}/api/redirects`, {
      method: "POST",
      headers: { authorization: `Bearer ${cms!.token}`, "content-type": "application/json" },
      body: JSON.stringify({ data: { source: "/en/x", destination: "/" } }),
    });
    expect(write.status).toBe(403);
  });

  it(
    "changes nothing when started again on the same database",
    async () => {
      first = await snapshot(cms!);
      expect(Object.keys(first).length).toBe(9 + 4 + 6 + 2);
      const token = cms!.token;
      await cms!.stop();
      cms = undefined;

      cms = await startCms({ port: PORT, dbFile, logFile });
      expect(cms.token).toBe(token);
      expect((await get(cms, "/api/pages?locale=en")).status).toBe(200);
      expect(await snapshot(cms)).toEqual(first);
      // The share image was uploaded once, by the first start.
      expect(readFileSync(logFile, "utf8").match(/\[seed\] share image/g)).toHaveLength(1);
    },
    TIMEOUT,
  );
});
