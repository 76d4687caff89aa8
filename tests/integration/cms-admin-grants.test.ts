import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  adminCall,
  adminContentTypes,
  adminOk,
  adminRoleGrants,
  adminRoleId,
  adminWithRole,
  superAdminToken,
  type Json,
} from "../support/admin-users.ts";
import { oauthSyncInCms, registerCmsUser, runOnCmsDatabase } from "../support/cms-accounts.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";

/**
 * Who may do what on each content type (docs/security.md, finding 39): the real Strapi's content
 * types and admin roles against the one declared table, cms/src/admin-grants.js. An Author (a real
 * admin user with Strapi's Author role) used to create an `oauth-identity` row linking a provider
 * account to any user, then signed in as that user; the same views listed every user's private
 * fields. A database that held those grants loses them at start.
 */

const PORT = await getPort();
const TIMEOUT = 240_000;
const grants = createRequire(import.meta.url)("../../cms/src/admin-grants.js") as {
  decisionFor(uid: string, contentType: Json): unknown;
  isDecided(roleCode: string, grant: Json, contentTypes: Record<string, Json>): boolean;
  ownedByOwnPlugin(uid: string): boolean;
};

const OAUTH_IDENTITY = "plugin::accounts.oauth-identity";
const FAILURE = "plugin::site-cache.revalidation-failure";
const USER = "plugin::users-permissions.user";
const CM = "/content-manager";

let dir: string;
let cms: CmsHandle;
const tokens = { superAdmin: "", editor: "", author: "" };
const roles = { editor: 0, author: 0 };
let victimId = 0;

const OAUTH_SYNC_SECRET = "test-oauth-sync-secret-0123456789abcdef";
const startTheCms = (fresh: boolean) =>
  startCms({ port: PORT, dbFile: path.join(dir, "cms.db"), fresh, env: { CMS_OAUTH_SYNC_SECRET: OAUTH_SYNC_SECRET } });
const call = (method: string, apiPath: string, token: string, body?: unknown) =>
  adminCall(cms.url, method, apiPath, { token, body });

const contentTypes = () => adminContentTypes(cms.url, tokens.superAdmin);
const roleGrants = () => adminRoleGrants(cms.url, tokens.superAdmin);

const describeGrant = ({ role, grant }: { role: string; grant: Json }) =>
  `${role} ${grant.action} ${grant.subject ?? "-"} ${JSON.stringify(grant.conditions ?? [])}`;

/** What an Author or Editor tried against the accounts' types: each answer's status. */
async function accountAttempts(token: string) {
  return {
    createIdentity: (
      await call("POST", `${CM}/collection-types/${OAUTH_IDENTITY}`, token, {
        provider: "github",
        subject: "31337",
        user: victimId,
      })
    ).status,
    listIdentities: (await call("GET", `${CM}/collection-types/${OAUTH_IDENTITY}`, token)).status,
    // Strapi's relations controller answers its own refusal with 500 (it goes on after ctx.forbidden()):
    // refused either way, and nothing of the users in the answer.
    usersOfRelation: await call("GET", `${CM}/relations/${OAUTH_IDENTITY}/user`, token).then((answer) =>
      answer.status >= 400 && !JSON.stringify(answer.body).includes("victim@example.com") ? 403 : answer.status,
    ),
    listUsers: (await call("GET", `${CM}/collection-types/${USER}`, token)).status,
    createFailure: (
      await call("POST", `${CM}/collection-types/${FAILURE}`, token, {
        uid: "api::navbar.navbar",
        state: "pending",
        payload: { next: { tags: ["cms:api::navbar.navbar"], expire: true } },
      })
    ).status,
  };
}
const ALL_REFUSED = {
  createIdentity: 403,
  listIdentities: 403,
  usersOfRelation: 403,
  listUsers: 403,
  createFailure: 403,
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cms-admin-grants-"));
  cms = await startTheCms(true);
  tokens.superAdmin = await superAdminToken(cms.url);
  roles.editor = await adminRoleId(cms.url, tokens.superAdmin, "strapi-editor");
  roles.author = await adminRoleId(cms.url, tokens.superAdmin, "strapi-author");
  tokens.editor = await adminWithRole(cms.url, tokens.superAdmin, roles.editor, "Editor");
  tokens.author = await adminWithRole(cms.url, tokens.superAdmin, roles.author, "Author");
  await registerCmsUser(cms.url, "victim@example.com", "VictimPass12345");
  const { results } = await adminOk(cms.url, "GET", `${CM}/collection-types/${USER}`, tokens.superAdmin);
  victimId = (results as Json[]).find((user) => user.email === "victim@example.com")!.id as number;
}, TIMEOUT);

afterAll(async () => {
  await cms?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("admin roles × content types (cms/src/admin-grants.js)", () => {
  it("every content type is decided, and every admin role's grant is one the table lists", async () => {
    const types = await contentTypes();
    expect(Object.keys(types)).toEqual(expect.arrayContaining([OAUTH_IDENTITY, FAILURE, USER, "api::page.page"]));
    const undecidedTypes = Object.keys(types).filter((uid) => grants.decisionFor(uid, types[uid]!) === undefined);
    expect(undecidedTypes, "content types cms/src/admin-grants.js does not list").toEqual([]);
    const held = await roleGrants();
    expect(new Set(held.map(({ role }) => role))).toEqual(
      new Set(["strapi-super-admin", "strapi-editor", "strapi-author"]),
    );
    const undecided = held.filter(({ role, grant }) => !grants.isDecided(role, grant, types)).map(describeGrant);
    expect(undecided, "grants no one decided (role action subject conditions)").toEqual([]);
  });

  it("the plugins' own types are hidden from the Content Manager and the Content-Type Builder", async () => {
    const types = await contentTypes();
    const own = Object.keys(types).filter(grants.ownedByOwnPlugin);
    expect(own.sort()).toEqual([OAUTH_IDENTITY, FAILURE].sort());
    for (const uid of own) expect(types[uid]!.pluginOptions["content-manager"].visible, uid).toBe(false);
    const { data } = await adminOk(cms.url, "GET", "/content-type-builder/content-types", tokens.superAdmin);
    for (const uid of own) expect((data as Json[]).find((type) => type.uid === uid)?.schema.visible, uid).toBe(false);
  });
});

describe("an Author or Editor cannot reach the site's accounts (finding 39)", () => {
  it("an Author cannot link a provider account to a user, list the links, the users or their fields, or record a failure", async () => {
    const byAuthor = await accountAttempts(tokens.author);
    // The site's OAuth sync for that provider account (what signing in with it sends): a new user of
    // its own, not the victim's JWT (which it answered when the Author's link was created).
    const signedIn = await oauthSyncInCms(cms.url, OAUTH_SYNC_SECRET, {
      provider: "github",
      subject: "31337",
      email: "attacker@example.com",
      emailVerified: true,
    });
    expect(signedIn.user.email).toBe("attacker@example.com");
    expect(signedIn.user.id).not.toBe(victimId);
    expect(byAuthor).toEqual(ALL_REFUSED);
    expect(await accountAttempts(tokens.editor)).toEqual(ALL_REFUSED);
    // Not even the Super Admin writes the plugins' rows: only the plugins' code does.
    const superAdmin = await accountAttempts(tokens.superAdmin);
    expect(superAdmin).toMatchObject({ createIdentity: 403, listIdentities: 403, createFailure: 403 });
    expect(superAdmin.listUsers).toBe(200);
  });

  it(
    "a database whose roles held the old grants loses them at the next start",
    async () => {
      // What an older first start granted, through Strapi's own role API where it still takes them
      // (a read of a hidden type, the users), straight into the database where it does not (a create
      // of a hidden type). Each one is live: the Author reads the users through the relation.
      const { data: held } = await adminOk(
        cms.url,
        "GET",
        `/admin/roles/${roles.author}/permissions`,
        tokens.superAdmin,
      );
      const keep = (held as Json[]).map(({ action, subject, properties, conditions }) => ({
        action,
        subject,
        properties,
        conditions,
      }));
      const read = "plugin::content-manager.explorer.read";
      const old = [
        {
          action: read,
          subject: OAUTH_IDENTITY,
          properties: { fields: ["provider", "subject", "user"] },
          conditions: [],
        },
        { action: read, subject: USER, properties: { fields: ["username", "email", "provider"] }, conditions: [] },
        {
          action: "plugin::content-manager.explorer.update",
          subject: USER,
          properties: { fields: ["email"] },
          conditions: [],
        },
      ];
      await adminOk(cms.url, "PUT", `/admin/roles/${roles.author}/permissions`, tokens.superAdmin, {
        permissions: [...keep, ...old],
      });
      const live = await call("GET", `${CM}/relations/${OAUTH_IDENTITY}/user`, tokens.author);
      expect(live.status, JSON.stringify(live.body)).toBe(200);
      expect(JSON.stringify(live.body)).toContain("victim@example.com");
      expect((await call("GET", `${CM}/collection-types/${USER}`, tokens.author)).status).toBe(200);

      await cms.stop();
      const created = Date.now();
      for (const [role, conditions] of [
        [roles.author, '["admin::is-creator"]'],
        [roles.editor, "[]"],
      ] as const) {
        runOnCmsDatabase(
          cms.dbFile,
          `INSERT INTO admin_permissions (document_id, action, action_parameters, subject, properties, conditions, created_at, updated_at, published_at)
           VALUES (?, 'plugin::content-manager.explorer.create', '{}', ?, '{"fields":["provider","subject","user"]}', ?, ?, ?, ?)`,
          `old-grant-${role}`,
          OAUTH_IDENTITY,
          conditions,
          created,
          created,
          created,
        );
        runOnCmsDatabase(
          cms.dbFile,
          `INSERT INTO admin_permissions_role_lnk (permission_id, role_id, permission_ord)
           SELECT id, ?, 1000 FROM admin_permissions WHERE document_id = ?`,
          role,
          `old-grant-${role}`,
        );
      }
      cms = await startTheCms(false);
      tokens.superAdmin = await superAdminToken(cms.url);

      const types = await contentTypes();
      const undecided = (await roleGrants())
        .filter(({ role, grant }) => !grants.isDecided(role, grant, types))
        .map(describeGrant);
      expect(undecided).toEqual([]);
      expect(await accountAttempts(tokens.author)).toEqual(ALL_REFUSED);
      expect(await accountAttempts(tokens.editor)).toEqual(ALL_REFUSED);
      expect(readFileSync(`${cms.dbFile}.log`, "utf8")).toMatch(
        /\[admin-grants\] removed grants no one decided .*strapi-author plugin::content-manager\.explorer\.read plugin::accounts\.oauth-identity/,
      );
    },
    TIMEOUT,
  );
});
