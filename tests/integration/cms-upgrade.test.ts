import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { adminOk, adminRoleGrants, adminRoleId, superAdminToken, type Json } from "../support/admin-users.ts";
import { projectRoot } from "../support/app-server.ts";
import { getPage } from "../support/site-requests.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

/**
 * A site owner upgrading an existing database loses nothing and ticks nothing (docs/operations.md,
 * "Upgrading"): the navbar's entries of before decision 0041 (`shared.link`) become `shared.nav-link`
 * (cms/src/upgrades/navbar-nav-links.js), and the Editor and Author roles gain the fields the
 * upgrades added (cms/src/grant-added-fields.js) while a field an admin removed stays removed.
 *
 * A database of its own: an existing database is the point (the shared CMS's is new), and its CMS
 * revalidates this file's site (the shared one cannot). Its older
 * shape is written into the seeded template's copy as the CMS of the commit before 1884e86 left
 * it (checked against a database made by that CMS: navbar entries as `navbars_cmps` rows typed
 * `shared.link` with their `components_shared_links` rows; the roles' field lists without
 * `coverAlt`, `seo.shareImageAlt`, the links' `page`/`article`; no record of synced fields).
 */

type Sqlite = {
  prepare(sql: string): {
    run(...args: unknown[]): { lastInsertRowid: number | bigint };
    all(...args: unknown[]): Json[];
  };
  pragma(sql: string): unknown;
  close(): void;
};
const Database = createRequire(import.meta.url)(path.join(projectRoot, "cms/node_modules/better-sqlite3")) as new (
  file: string,
) => Sqlite;

const OLD_LINKS: Record<string, Array<[string, string]>> = {
  en: [
    ["Old jobs", "/positions"],
    ["Old company", "/company"],
    ["Old careers", "/company/careers"],
  ],
  de: [
    ["Alte Firma", "/de/company"],
    ["Alte Jobs", "/de/positions"],
  ],
};
/** The fields the upgrades added, absent from an older database's role grants. */
const ADDED = { "api::article.article": ["coverAlt"], "api::page.page": ["seo.shareImageAlt"] } as Record<
  string,
  string[]
>;
const ARTICLE = "api::article.article";
const EDITING = ["create", "read", "update"].map((verb) => `plugin::content-manager.explorer.${verb}`);
const SYNCED_KEY = "core_admin-grants_role-fields-synced";

function withDatabase(dbFile: string, change: (db: Sqlite) => void) {
  const db = new Database(dbFile);
  try {
    db.pragma("foreign_keys = ON");
    change(db);
  } finally {
    db.close();
  }
}

/** Rewrites each of the role's grants' field lists that has one. */
function editFields(db: Sqlite, edit: (code: string, subject: string, fields: string[]) => string[]) {
  const grants = db
    .prepare(
      `SELECT p.id, p.subject, p.properties, r.code FROM admin_permissions p
       JOIN admin_permissions_role_lnk l ON l.permission_id = p.id JOIN admin_roles r ON r.id = l.role_id
       WHERE r.code IN ('strapi-editor', 'strapi-author')`,
    )
    .all();
  for (const grant of grants) {
    const properties = JSON.parse(grant.properties as string) as Json;
    if (!Array.isArray(properties.fields)) continue;
    properties.fields = edit(grant.code as string, grant.subject as string, properties.fields as string[]);
    db.prepare("UPDATE admin_permissions SET properties = ? WHERE id = ?").run(JSON.stringify(properties), grant.id);
  }
}

/** The navbar's entries in each locale as a CMS from before decision 0041 wrote them. */
function writeOldNavbar(db: Sqlite, links: Record<string, Array<[string, string]>>) {
  db.prepare(
    "DELETE FROM components_shared_nav_links WHERE id IN (SELECT cmp_id FROM navbars_cmps WHERE field = 'links')",
  ).run();
  db.prepare("DELETE FROM navbars_cmps WHERE field = 'links'").run();
  for (const navbar of db.prepare("SELECT id, locale FROM navbars").all()) {
    links[navbar.locale as string]!.forEach(([label, url], index) => {
      const link = db.prepare("INSERT INTO components_shared_links (label, url) VALUES (?, ?)").run(label, url);
      db.prepare(
        `INSERT INTO navbars_cmps (entity_id, cmp_id, component_type, field, "order") VALUES (?, ?, 'shared.link', 'links', ?)`,
      ).run(navbar.id, link.lastInsertRowid, index + 1);
    });
  }
}

/** The database as a CMS from before this version left it. */
function olderDatabase(dbFile: string) {
  withDatabase(dbFile, (db) => {
    writeOldNavbar(db, OLD_LINKS);
    // An admin of that database had taken `excerpt` away from the Editor on articles.
    editFields(db, (code, subject, fields) =>
      fields.filter(
        (field) =>
          !ADDED[subject]?.includes(field) && !(code === "strapi-editor" && subject === ARTICLE && field === "excerpt"),
      ),
    );
    db.prepare("DELETE FROM strapi_core_store_settings WHERE key = ?").run(SYNCED_KEY);
  });
}

const secrets = { CMS_REVALIDATE_SECRET: "cms-upgrade-revalidate-secret-0123456789" };
const site = strapiSite("cms-upgrade", { existingDatabase: olderDatabase, cmsEnv: () => secrets, appEnv: secrets });

const cmsLog = () => readFileSync(path.join(site.dir, "cms.db.log"), "utf8");
const conversions = () => cmsLog().match(/\[upgrade\] navbar: converted \d+/g)?.length ?? 0;

/** The labels and addresses of the site's main navigation on this page, and whether the page cache answered. */
async function mainNav(pagePath: string) {
  const page = await getPage(site.app.url, pagePath);
  return { links: linksOf(page.text), cache: page.cache };
}
function linksOf(html: string) {
  const nav = /<nav[^>]*class="main-nav"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  return [...nav.matchAll(/<a[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map(([, href, label]) => [label, href]);
}

/** The fields of the role's article grants that list them, per action. */
async function articleFields(token: string, code: string) {
  const grants = await adminRoleGrants(site.cms.url, token);
  return Object.fromEntries(
    grants
      .filter(({ role, grant }) => role === code && grant.subject === ARTICLE && EDITING.includes(grant.action))
      .map(({ grant }) => [grant.action.split(".").pop(), [...(grant.properties.fields as string[])].sort()]),
  );
}

describe("upgrading an existing database", () => {
  it("the navbar's entries of before arrive through the site in each locale, in their order", async () => {
    expect((await mainNav("/")).links).toEqual(OLD_LINKS.en);
    expect((await mainNav("/de")).links).toEqual(OLD_LINKS.de);
    expect(cmsLog()).toContain(
      '[upgrade] navbar: converted 5 shared.link entries of "links" into shared.nav-link (label, URL, order kept) in 2 navbar rows',
    );
  });

  it("the roles gain the added fields at the start; fields an admin removed stay removed across restarts", async () => {
    let token = await superAdminToken(site.cms.url);
    const editor = await articleFields(token, "strapi-editor");
    const author = await articleFields(token, "strapi-author");
    for (const fields of Object.values(editor)) expect(fields).toContain("coverAlt");
    for (const fields of Object.values(editor)) expect(fields).not.toContain("excerpt");
    for (const fields of Object.values(author)) expect(fields).toEqual(expect.arrayContaining(["coverAlt", "excerpt"]));
    expect(Object.keys(editor).sort()).toEqual(["create", "read", "update"]);

    // An admin takes coverAlt away from the Editor's article edits in the role editor.
    const editorId = await adminRoleId(site.cms.url, token, "strapi-editor");
    const { data: held } = await adminOk(site.cms.url, "GET", `/admin/roles/${editorId}/permissions`, token);
    const permissions = (held as Json[]).map(({ action, subject, properties, conditions }) => ({
      action,
      subject,
      conditions,
      properties:
        subject === ARTICLE && Array.isArray(properties.fields)
          ? { ...properties, fields: properties.fields.filter((field: string) => field !== "coverAlt") }
          : properties,
    }));
    await adminOk(site.cms.url, "PUT", `/admin/roles/${editorId}/permissions`, token, { permissions });

    // While stopped, a later upgrade's field: publishDate new to articles since the last start
    // (not in the record, not in the Author's grants).
    await site.restartCms((dbFile) =>
      withDatabase(dbFile, (db) => {
        const [stored] = db.prepare("SELECT value FROM strapi_core_store_settings WHERE key = ?").all(SYNCED_KEY);
        const synced = JSON.parse(stored!.value as string) as Record<string, string[]>;
        synced[ARTICLE] = synced[ARTICLE]!.filter((field) => field !== "publishDate");
        db.prepare("UPDATE strapi_core_store_settings SET value = ? WHERE key = ?").run(
          JSON.stringify(synced),
          SYNCED_KEY,
        );
        editFields(db, (code, subject, fields) =>
          code === "strapi-author" && subject === ARTICLE ? fields.filter((field) => field !== "publishDate") : fields,
        );
      }),
    );

    token = await superAdminToken(site.cms.url);
    for (const fields of Object.values(await articleFields(token, "strapi-editor"))) {
      expect(fields).not.toContain("coverAlt");
      expect(fields).not.toContain("excerpt");
    }
    for (const fields of Object.values(await articleFields(token, "strapi-author")))
      expect(fields).toEqual(expect.arrayContaining(["coverAlt", "excerpt", "publishDate"]));
    // The navbar's conversion is done once: the second start found nothing to convert.
    expect(conversions()).toBe(1);
    const navbar = await fetch(`${site.cms.url}/api/navbar?locale=en&populate=links`, {
      headers: { authorization: `Bearer ${site.cms.token}` },
    });
    const { data } = (await navbar.json()) as Json;
    expect((data.links as Json[]).map(({ label, url }) => [label, url])).toEqual(OLD_LINKS.en);
  }, 240_000);

  it("a navbar converted while the site runs re-renders the pages the site had cached", async () => {
    const renamed = {
      en: [["Renamed jobs", "/positions"]],
      de: [["Umbenannte Jobs", "/de/positions"]],
    } as typeof OLD_LINKS;
    await until(
      "/ cached with the navbar of before",
      () => mainNav("/"),
      (page) => page.cache === "HIT",
      {
        timeoutMs: 20_000,
        intervalMs: 100,
      },
    );
    await site.restartCms((dbFile) => withDatabase(dbFile, (db) => writeOldNavbar(db, renamed)));
    // The revalidation the start sends; the page cache keeps the old navbar without it.
    await until(
      "/ to show the converted navbar",
      () => mainNav("/"),
      (page) => JSON.stringify(page.links) === JSON.stringify(renamed.en),
      {
        timeoutMs: 20_000,
        intervalMs: 100,
      },
    );
  }, 240_000);
});
