import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { adminCall, adminOk, adminRoleId, adminWithRole, superAdminToken, type Json } from "../support/admin-users.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";

/**
 * The Editor and Author roles of a new database at work on the site's localized types, in every
 * locale (docs/decisions/0030): Strapi's first start gives those roles content-manager grants
 * without a locale list, which its i18n permission engine reads as "no locale", so an Editor could
 * neither publish nor delete a page or an article until someone ticked the locales in the role
 * editor. cms/src/admin-grants.js declares all locales; cms/src/grant-default-locales.js gives
 * them once.
 */

const PORT = await getPort();
const TIMEOUT = 240_000;
const LOCALES = ["de", "en"];
const TYPES = { page: "api::page.page", article: "api::article.article" } as const;
const CM = "/content-manager/collection-types";

const startTheCms = (fresh: boolean) => startCms({ port: PORT, dbFile: path.join(dir, "cms.db"), fresh });

let dir: string;
let cms: CmsHandle;
const tokens = { superAdmin: "", editor: "", author: "" };
const roles = { editor: 0, author: 0 };

const call = (method: string, apiPath: string, token: string, body?: unknown) =>
  adminCall(cms.url, method, apiPath, { token, body });

const fieldsOf = (kind: keyof typeof TYPES, locale: string, name: string) =>
  kind === "page"
    ? { title: `Page ${name} ${locale}`, slug: `${name}-${locale}` }
    : { title: `Article ${name} ${locale}`, slug: `${name}-${locale}` };

/** A draft document of `kind` in both locales, created by the admin whose token this is. */
async function draftInBothLocales(kind: keyof typeof TYPES, token: string, name: string) {
  const created = await call("POST", `${CM}/${TYPES[kind]}?locale=en`, token, fieldsOf(kind, "en", name));
  expect(created.status, `create ${kind} en: ${JSON.stringify(created.body)}`).toBe(201);
  const documentId = created.body.data.documentId as string;
  const localized = await call(
    "PUT",
    `${CM}/${TYPES[kind]}/${documentId}?locale=de`,
    token,
    fieldsOf(kind, "de", name),
  );
  expect(localized.status, `create ${kind} de: ${JSON.stringify(localized.body)}`).toBe(200);
  return documentId;
}

/** Each step's status, named, so a failure shows all of them at once. */
async function statuses(steps: Array<[string, () => Promise<{ status: number }>]>) {
  const result: Record<string, number> = {};
  for (const [name, step] of steps) result[name] = (await step()).status;
  return result;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cms-editor-locales-"));
  cms = await startTheCms(true);
  tokens.superAdmin = await superAdminToken(cms.url);
  roles.editor = await adminRoleId(cms.url, tokens.superAdmin, "strapi-editor");
  roles.author = await adminRoleId(cms.url, tokens.superAdmin, "strapi-author");
  tokens.editor = await adminWithRole(cms.url, tokens.superAdmin, roles.editor, "Editor");
  tokens.author = await adminWithRole(cms.url, tokens.superAdmin, roles.author, "Author");
}, TIMEOUT);

afterAll(async () => {
  await cms?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the default roles on the site's localized types, in every locale", () => {
  it("a new database's Editor and Author grants on localized types name every locale", async () => {
    for (const role of [roles.editor, roles.author]) {
      const { data } = await adminOk(cms.url, "GET", `/admin/roles/${role}/permissions`, tokens.superAdmin);
      const onLocalized = (data as Json[]).filter((grant) => Object.values(TYPES).includes(grant.subject));
      expect(onLocalized.length, `role ${role}: grants on pages and articles`).toBeGreaterThan(0);
      const withoutAll = onLocalized
        .filter((grant) => JSON.stringify([...(grant.properties?.locales ?? [])].sort()) !== JSON.stringify(LOCALES))
        .map((grant) => `${grant.action} ${grant.subject} ${JSON.stringify(grant.properties?.locales)}`);
      expect(withoutAll, `role ${role}: grants without every locale`).toEqual([]);
    }
  });

  for (const kind of ["page", "article"] as const) {
    it(`an Editor publishes and deletes a ${kind} someone else wrote, in both locales`, async () => {
      const documentId = await draftInBothLocales(kind, tokens.superAdmin, `by-super-${kind}`);
      const base = `${CM}/${TYPES[kind]}/${documentId}`;
      expect(
        await statuses([
          ["update en", () => call("PUT", `${base}?locale=en`, tokens.editor, { title: `Edited ${kind} en` })],
          ["update de", () => call("PUT", `${base}?locale=de`, tokens.editor, { title: `Edited ${kind} de` })],
          ["publish en", () => call("POST", `${base}/actions/publish?locale=en`, tokens.editor, {})],
          ["publish de", () => call("POST", `${base}/actions/publish?locale=de`, tokens.editor, {})],
          ["delete de", () => call("DELETE", `${base}?locale=de`, tokens.editor)],
          ["delete en", () => call("DELETE", `${base}?locale=en`, tokens.editor)],
        ]),
      ).toEqual({
        "update en": 200,
        "update de": 200,
        "publish en": 200,
        "publish de": 200,
        "delete de": 200,
        "delete en": 200,
      });
      expect((await call("GET", `${base}?locale=en`, tokens.superAdmin)).status).toBe(404);
    });
  }

  it("an Author manages their own article in both locales, not another's, and publishes none", async () => {
    const own = await draftInBothLocales("article", tokens.author, "by-author");
    const others = await draftInBothLocales("article", tokens.superAdmin, "by-super-for-author");
    const mine = `${CM}/${TYPES.article}/${own}`;
    const theirs = `${CM}/${TYPES.article}/${others}`;
    expect(
      await statuses([
        ["own update en", () => call("PUT", `${mine}?locale=en`, tokens.author, { title: "Mine en" })],
        ["own update de", () => call("PUT", `${mine}?locale=de`, tokens.author, { title: "Meins de" })],
        ["own publish de", () => call("POST", `${mine}/actions/publish?locale=de`, tokens.author, {})],
        ["their update de", () => call("PUT", `${theirs}?locale=de`, tokens.author, { title: "Taken" })],
        ["their delete en", () => call("DELETE", `${theirs}?locale=en`, tokens.author)],
        ["own delete de", () => call("DELETE", `${mine}?locale=de`, tokens.author)],
        ["own delete en", () => call("DELETE", `${mine}?locale=en`, tokens.author)],
      ]),
    ).toEqual({
      "own update en": 200,
      "own update de": 200,
      "own publish de": 403,
      "their update de": 403,
      "their delete en": 403,
      "own delete de": 200,
      "own delete en": 200,
    });
    const { body } = await call("GET", `${theirs}?locale=de`, tokens.superAdmin);
    expect(body.data.title).toBe("Article by-super-for-author de");
  });

  it(
    "an admin's removal of an Editor's grant in the role editor outlasts a restart",
    async () => {
      const permissionsPath = `/admin/roles/${roles.editor}/permissions`;
      const { data } = await adminOk(cms.url, "GET", permissionsPath, tokens.superAdmin);
      const isPagePublish = (grant: Json) =>
        grant.action === "plugin::content-manager.explorer.publish" && grant.subject === TYPES.page;
      const kept = (data as Json[])
        .filter((grant) => !isPagePublish(grant))
        .map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
      await adminOk(cms.url, "PUT", permissionsPath, tokens.superAdmin, { permissions: kept });

      await cms.stop();
      cms = await startTheCms(false);
      tokens.superAdmin = await superAdminToken(cms.url);
      const { data: after } = await adminOk(cms.url, "GET", permissionsPath, tokens.superAdmin);
      expect((after as Json[]).filter(isPagePublish)).toEqual([]);
      const documentId = await draftInBothLocales("page", tokens.superAdmin, "after-restart");
      const publish = await call(
        "POST",
        `${CM}/${TYPES.page}/${documentId}/actions/publish?locale=en`,
        tokens.editor,
        {},
      );
      expect(publish.status).toBe(403);
      // The rest of the Editor's grants are as they were.
      const remove = await call("DELETE", `${CM}/${TYPES.page}/${documentId}?locale=en`, tokens.editor);
      expect(remove.status).toBe(200);
    },
    TIMEOUT,
  );
});
