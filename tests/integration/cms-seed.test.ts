import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { cmsTemplate, startCms, type CmsHandle } from "../support/cms-server.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";

/**
 * The real Strapi on a fresh SQLite file: the seed gives the front end what it reads
 * (pages in en and de, navbar, footer, redirects) through the read-only token, nobody
 * anonymous or with that token can list users, and a second start changes nothing. The demo
 * content is written once: what editors then move, rename or delete stays so over restarts,
 * and a seed that fails never keeps the CMS from starting.
 */

// The CMS's own SQLite driver: the seed marker is read (and removed, to stand for an older install) in the file.
const Database = createRequire(import.meta.url)("../../cms/node_modules/better-sqlite3") as new (file: string) => {
  prepare(sql: string): { get(...args: unknown[]): unknown; run(...args: unknown[]): unknown };
  close(): void;
};
/** Where cms/src/seed/demo-site.js keeps its marker: Strapi's core store, key `core_demo-seed_content`. */
const MARKER_KEY = "core_demo-seed_content";

function seedMarker(dbFile: string, { remove = false } = {}): Json | null {
  const db = new Database(dbFile);
  try {
    if (remove) db.prepare("DELETE FROM strapi_core_store_settings WHERE key = ?").run(MARKER_KEY);
    const row = db.prepare("SELECT value FROM strapi_core_store_settings WHERE key = ?").get(MARKER_KEY) as
      { value: string } | undefined;
    return row ? (JSON.parse(row.value) as Json) : null;
  } finally {
    db.close();
  }
}

const PAGES = "/content-manager/collection-types/api::page.page";

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

/** What the admin lists (drafts and published, every locale), as an editor left it. */
async function adminSnapshot(admin: StrapiAdmin): Promise<Json> {
  const result: Json = {};
  for (const locale of ["en", "de"]) {
    const { results } = (await admin.call("GET", `${PAGES}?locale=${locale}&pageSize=100`)) as { results: Json[] };
    for (const page of results) {
      result[`${locale} ${page.documentId}`] = {
        fullPath: page.fullPath,
        slug: page.slug,
        title: page.title,
        status: page.status,
        updatedAt: page.updatedAt,
      };
    }
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
    // The real first start on an empty database (other tests start on a copy of its result).
    cms = await startCms({ port: PORT, dbFile, fresh: true, firstStart: true, logFile });
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
        "/positions": "Open positions",
        "/positions/backend-engineer": "Backend Engineer",
        "/positions/frontend-engineer": "Frontend Engineer",
        "/positions/product-designer": "Product Designer",
        "/imprint": "Imprint",
        "/contact": "Contact",
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
        "/impressum": "Impressum",
        "/kontakt": "Kontakt",
      });
      // English path → German path of the same document (the imprint has its own German slug).
      const twins: Array<[string, string]> = [
        ["/", "/"],
        ["/company", "/company"],
        ["/company/careers", "/company/careers"],
        ["/careers", "/careers"],
        ["/imprint", "/impressum"],
        ["/contact", "/kontakt"],
      ];
      for (const [enPath, dePath] of twins) {
        const [en, de] = [await pageAt(cms!, enPath, "en"), await pageAt(cms!, dePath, "de")];
        expect(de.documentId, enPath).toBe(en.documentId);
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
      // Internal links are references (docs/links.md): a page's fullPath and locale, an article's slug.
      const target = (l: Json) =>
        l.page
          ? `page ${l.page.locale} ${l.page.fullPath}`
          : l.article
            ? `article ${l.article.locale} ${l.article.slug}`
            : l.url;
      const withTargets =
        "populate[links][populate][page][fields][0]=fullPath&populate[links][populate][page][fields][1]=locale&populate[links][populate][article][fields][0]=slug&populate[links][populate][article][fields][1]=locale";
      const children =
        "populate[links][populate][children][populate][page][fields][0]=fullPath&populate[links][populate][children][populate][page][fields][1]=locale&populate[links][populate][children][populate][article][fields][0]=slug&populate[links][populate][children][populate][article][fields][1]=locale";
      const nav = (locale: string) => getData(cms!, `/api/navbar?locale=${locale}&${withTargets}&${children}`);
      const entries = (data: Json) =>
        data.links.map((l: Json) => [l.label, target(l) ?? null, l.children.map((c: Json) => [c.label, target(c)])]);
      expect(entries(await nav("en"))).toEqual([
        ["Home", "page en /", []],
        ["Company", "page en /company", []],
        ["Careers", "page en /company/careers", []],
        ["Jobs", "page en /positions", []],
        [
          "More",
          null,
          [
            ["Engineering at Acme", "page en /company/careers/engineering"],
            ["Our Berlin office", "article en berlin-office"],
            ["Imprint", "page en /imprint"],
          ],
        ],
      ]);
      expect(entries(await nav("de"))).toEqual([
        ["Start", "page de /", []],
        ["Unternehmen", "page de /company", []],
        ["Karriere", "page de /company/careers", []],
        [
          "Mehr",
          null,
          [
            ["Unser Büro in Berlin", "article de buero-berlin"],
            ["Impressum", "page de /impressum"],
          ],
        ],
      ]);
      const footerEn = await getData(cms!, `/api/footer?locale=en&${withTargets}`);
      expect(footerEn.note).toBe("© Acme Inc.");
      expect(footerEn.links.map((l: Json) => [l.label, target(l)])).toEqual([
        ["Imprint", "page en /imprint"],
        ["Jobs", "page en /positions"],
        ["Contact", "page en /contact"],
      ]);
      const footerDe = await getData(cms!, `/api/footer?locale=de&${withTargets}`);
      expect(footerDe.note).toBe("© Acme GmbH");
      expect(footerDe.links.map((l: Json) => [l.label, target(l)])).toEqual([
        ["Impressum", "page de /impressum"],
        ["Kontakt", "page de /kontakt"],
      ]);

      const oldCareers = await getData(cms!, "/api/redirects?filters[source][$eq]=/en/old-careers");
      expect(oldCareers).toHaveLength(1);
      expect(oldCareers[0]).toMatchObject({ destination: "/company/careers", permanent: true });
      const jobsBoard = await getData(cms!, "/api/redirects?filters[source][$eq]=/en/jobs-board");
      expect(jobsBoard).toHaveLength(1);
      expect(jobsBoard[0]).toMatchObject({ destination: "/positions", permanent: false });
    },
    TIMEOUT,
  );

  it(
    "links the footer's Imprint to a published imprint page in each locale",
    async () => {
      for (const [locale, label, fullPath, title] of [
        ["en", "Imprint", "/imprint", "Imprint"],
        ["de", "Impressum", "/impressum", "Impressum"],
      ] as const) {
        const footer = await getData(cms!, `/api/footer?locale=${locale}&populate[links][populate]=page`);
        const link = footer.links.find((l: Json) => l.label === label);
        // A reference to the page's version in the footer's locale (docs/links.md).
        expect(link?.page, locale).toMatchObject({ fullPath, locale });
        const page = await pageAt(cms!, fullPath, locale);
        expect(page).toMatchObject({ title, publishedAt: expect.any(String) });
        expect(JSON.stringify(page.body)).toContain("Acme");
      }
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
      expect(Object.keys(first).length).toBe(11 + 6 + 6 + 2);
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

  /** Stops the CMS and starts it again on the same database; returns what it logged meanwhile. */
  async function restart(whileStopped?: () => void): Promise<string> {
    const logged = readFileSync(logFile, "utf8").length;
    await cms!.stop();
    cms = undefined;
    whileStopped?.();
    // Resolves only once the CMS answers and has its read-only token: the start succeeded.
    cms = await startCms({ port: PORT, dbFile, logFile });
    return readFileSync(logFile, "utf8").slice(logged);
  }

  it(
    "leaves what editors moved, renamed and deleted exactly as they left it, over two more starts",
    async () => {
      const admin = await StrapiAdmin.login(cms!.url);
      const id = (fullPath: string, locale = "en") => admin.pageDocumentId(fullPath, locale);
      // Moved: "Careers at Acme" (and its child) under "Open positions", in English only. The seed
      // used to re-create it at /company/careers, then clash with the German one: no start, ever.
      await admin.call("POST", `${PAGES}/${await id("/company/careers")}/actions/publish?locale=en`, {
        parent: { connect: [{ documentId: await id("/positions"), locale: "en" }] },
      });
      // Renamed: a title and slug in English, a title in German.
      await admin.updateAndPublishPage(await id("/positions/backend-engineer"), "en", {
        title: "Platform Engineer",
        slug: "platform-engineer",
      });
      await admin.updateAndPublishPage(await id("/company", "de"), "de", { title: "Über uns" });
      // Deleted: a page, both locales of another, one locale of a third, a redirect; a footer link changed.
      await admin.call("DELETE", `${PAGES}/${await id("/positions/product-designer")}?locale=en`);
      const careersHub = await id("/careers");
      await admin.call("DELETE", `${PAGES}/${careersHub}?locale=de`);
      await admin.call("DELETE", `${PAGES}/${careersHub}?locale=en`);
      await admin.call("DELETE", `${PAGES}/${await id("/impressum", "de")}?locale=de`);
      const redirects = "/content-manager/collection-types/api::redirect.redirect";
      const { results } = (await admin.call("GET", `${redirects}?filters[source][$eq]=/en/jobs-board`)) as {
        results: Json[];
      };
      await admin.call("DELETE", `${redirects}/${results[0]!.documentId}`);
      await admin.setLinks("api::footer.footer", "en", [{ label: "Legal", url: "/imprint" }]);

      const edited = await snapshot(cms!);
      const editedInAdmin = await adminSnapshot(admin);
      expect(Object.keys(edited).filter((key) => key.startsWith("page "))).toEqual([
        "page en /",
        "page en /company",
        "page en /contact",
        "page en /imprint",
        "page en /positions",
        "page en /positions/careers",
        "page en /positions/careers/engineering",
        "page en /positions/frontend-engineer",
        "page en /positions/platform-engineer",
        "page de /",
        "page de /company",
        "page de /company/careers",
        "page de /kontakt",
      ]);
      expect(edited["redirect /en/jobs-board"]).toBeUndefined();

      for (const start of [1, 2]) {
        const logged = await restart();
        expect(await snapshot(cms!), `start ${start}`).toEqual(edited);
        expect(await adminSnapshot(admin), `start ${start}`).toEqual(editedInAdmin);
        expect(logged).not.toMatch(/\[seed\] (page|redirect|share image|api::)/);
        expect(logged).not.toContain("could not be set up");
      }
    },
    TIMEOUT,
  );

  it(
    "takes a database with content but no seed marker (installed before the marker) as seeded",
    async () => {
      const before = await snapshot(cms!);
      expect(seedMarker(dbFile)).toEqual({ seededAt: expect.any(String) });
      const logged = await restart(() => seedMarker(dbFile, { remove: true }));
      expect(logged).toContain("[seed] the database already has content: taken as seeded");
      expect(logged).not.toContain("could not be set up");
      expect(await snapshot(cms!)).toEqual(before);
      expect(seedMarker(dbFile)).toEqual({ adoptedAt: expect.any(String) });
    },
    TIMEOUT,
  );
});

describe("CMS seed that fails (real Strapi)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cms-seed-fails-"));
  const dbFile = path.join(dir, "cms.db");
  const logFile = path.join(dir, "cms.log");
  let cms: CmsHandle | undefined;

  afterAll(async () => {
    await cms?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  it(
    "is logged, the CMS starts anyway with nothing half-written, and the next start seeds",
    async () => {
      const port = await getPort();
      // The uploads folder is a file: the demo image cannot be written, so the content step fails
      // after it has already created the German locale (seedLocales runs first).
      const brokenPublic = path.join(dir, "broken-public");
      mkdirSync(brokenPublic);
      writeFileSync(path.join(brokenPublic, "uploads"), "not a folder");
      cms = await startCms({
        port,
        dbFile,
        fresh: true,
        firstStart: true,
        logFile,
        env: { CMS_PUBLIC_DIR: brokenPublic },
      });
      expect(readFileSync(logFile, "utf8")).toContain(
        "[seed] the demo content could not be set up; the CMS starts without it",
      );
      // Started, with its token (configuration is set up apart from content), and no content at all.
      expect(await getData(cms, "/api/pages?locale=en")).toEqual([]);
      const { body } = await get(cms, "/api/i18n/locales");
      expect((body as unknown as Json[]).map((locale) => locale.code)).toEqual(["en"]);
      expect(seedMarker(dbFile)).toBeNull();

      await cms.stop();
      cms = undefined;
      cms = await startCms({ port, dbFile, logFile });
      const pages = await getData(cms, "/api/pages?locale=en&pagination[pageSize]=100");
      expect(pages).toHaveLength(11);
      expect(seedMarker(dbFile)).toEqual({ seededAt: expect.any(String) });
    },
    TIMEOUT,
  );
});

describe("the seeded template other tests start on (tests/support/cms-server.ts, real Strapi)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cms-template-"));
  // What a test's environment decides on a first start: the site's address and name.
  const env = { CLIENT_URL: "http://127.0.0.1:3998/base", SITE_NAME: "Template Check" };
  let copy: CmsHandle | undefined;
  let real: CmsHandle | undefined;

  afterAll(async () => {
    await copy?.stop();
    await real?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  /** What differs between two seeds by nature (ids, times, an upload's hashed name) left out. */
  const normalise = (value: Json): Json =>
    JSON.parse(JSON.stringify(value), (key, field: unknown) =>
      ["id", "documentId", "createdAt", "updatedAt", "publishedAt"].includes(key)
        ? undefined
        : key === "shareImage"
          ? typeof field === "string" && field.length > 0
          : field,
    ) as Json;

  /** The users-permissions settings the first start writes, and the roles' admin permissions. */
  async function settings(cms: CmsHandle): Promise<Json> {
    const admin = await StrapiAdmin.login(cms.url);
    const roles = ((await admin.call("GET", "/admin/roles")) as { data: Json[] }).data;
    const permissions: Json = {};
    for (const role of roles) {
      const { data } = (await admin.call("GET", `/admin/roles/${role.id}/permissions`)) as { data: Json[] };
      permissions[role.code] = data.map((p) => `${p.action} ${p.subject ?? ""}`).sort();
    }
    // What the users-permissions roles (Public, Authenticated) may call: the content API's grants.
    const { roles: endUserRoles } = (await admin.call("GET", "/users-permissions/roles")) as { roles: Json[] };
    const grants: Json = {};
    for (const role of endUserRoles) {
      const { role: detail } = (await admin.call("GET", `/users-permissions/roles/${role.id}`)) as { role: Json };
      grants[role.type] = Object.entries(detail.permissions as Json).flatMap(([api, { controllers }]) =>
        Object.entries(controllers as Json).flatMap(([controller, actions]) =>
          Object.entries(actions as Json)
            .filter(([, action]) => (action as Json).enabled)
            .map(([action]) => `${api}.${controller}.${action}`),
        ),
      );
      grants[role.type].sort();
    }
    return {
      advanced: await admin.call("GET", "/users-permissions/advanced"),
      emailTemplates: await admin.call("GET", "/users-permissions/email-templates"),
      permissions,
      grants,
    };
  }

  it(
    "a copy starts as the real first start does: the same content, token, settings from its own environment",
    async () => {
      const template = await cmsTemplate();
      [copy, real] = await Promise.all([
        startCms({ port: await getPort(), dbFile: path.join(dir, "copy.db"), fresh: true, env }),
        startCms({ port: await getPort(), dbFile: path.join(dir, "real.db"), fresh: true, firstStart: true, env }),
      ]);
      // The copy is the template's database, with the template's token (the real start made its own).
      expect(readFileSync(path.join(template, "cms.db.readonly-token"), "utf8").trim()).toBe(copy.token);
      expect(copy.token).not.toBe(real.token);
      const [copied, seeded] = [await snapshot(copy), await snapshot(real)];
      expect(Object.keys(copied).length).toBeGreaterThan(20);
      expect(normalise(copied)).toEqual(normalise(seeded));
      const copiedSettings = await settings(copy);
      expect(normalise(copiedSettings)).toEqual(normalise(await settings(real)));
      // From this start's environment, not the template's.
      expect((copiedSettings.advanced as Json).settings.email_reset_password).toBe(`${env.CLIENT_URL}/reset-password`);
      expect(JSON.stringify(copiedSettings.emailTemplates)).toContain("Template Check");
      // Anonymous visitors and the token may do on the copy what they may on a real first start.
      for (const cms of [copy, real]) {
        expect((await get(cms, "/api/users", null)).status).toBe(403);
        expect((await get(cms, "/api/users")).status).toBe(403);
      }
    },
    TIMEOUT,
  );
});
