import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startCms, type CmsHandle } from "../support/cms-server.ts";

/**
 * The CMS's admin actions need an admin RBAC permission, not just any admin token: the manual
 * revalidation, the CDN purge and the hierarchy recalculation (the site-cache plugin's admin
 * routes, each guarded by Strapi's admin::hasPermissions: packages/strapi-plugin-site-cache/server/
 * admin-actions.js). Real Strapi, real admin users with the default roles: an Author is
 * refused (403) on each, an Editor and the Super Admin are allowed. The Editor's grant is made
 * once: a restart neither duplicates it nor re-adds it after an admin removed it.
 */

const PORT = await getPort();
const TIMEOUT = 240_000;
const REVALIDATE_SECRET = "test-cms-revalidate-secret-0123456789";
const PURGE_SECRET = "test-cdn-purge-secret-0123456789abcdef";
const ACTIONS = {
  revalidate: "plugin::site-cache.revalidate",
  purgeCdn: "plugin::site-cache.purge-cdn",
  recalculateHierarchy: "plugin::site-cache.recalculate-hierarchy",
};
type Json = Record<string, any>;

/** The front end stand-in: records what the CMS sends and answers 200. */
class FrontEnd {
  readonly requests: Array<{ url: string | undefined; authorization: string | undefined }> = [];
  /** The status of its answers to revalidations (503: the site is down, the CMS records a failure). */
  revalidateStatus = 200;
  /** The status of its answers to CDN purges (501: the site has no CDN, with the site's own message). */
  purgeStatus = 200;
  private server!: Server;
  url = "";

  async start() {
    this.server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        this.requests.push({ url: req.url, authorization: req.headers.authorization });
        const purge = req.url === "/api/cdn-purge";
        res.writeHead(purge ? this.purgeStatus : this.revalidateStatus, { "content-type": "application/json" });
        res.end(
          JSON.stringify(
            !purge
              ? { revalidated: true }
              : this.purgeStatus === 501
                ? {
                    error:
                      "No CDN is configured: set CDN_PROVIDER to cloudflare, fastly or http (see docs/configuration.md).",
                  }
                : { purged: true, provider: "stand-in", requests: [] },
          ),
        );
      });
    });
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const frontEnd = new FrontEnd();
let dir: string;
let cms: CmsHandle;
const tokens: { superAdmin: string; editor: string; author: string } = { superAdmin: "", editor: "", author: "" };
let editorRoleId: number;

const startTheCms = (fresh: boolean) =>
  startCms({
    port: PORT,
    dbFile: path.join(dir, "cms.db"),
    fresh,
    env: {
      CLIENT_URL: frontEnd.url,
      CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
      CMS_CDN_PURGE_SECRET: PURGE_SECRET,
      CMS_REVALIDATE_RETRIES: "0",
      // No periodic retry: the Site cache test retries by hand and counts what was delivered.
      CMS_REVALIDATE_RETRY_INTERVAL_MS: "0",
    },
  });

async function call(method: string, apiPath: string, body?: unknown, token?: string) {
  const response = await fetch(`${cms.url}${apiPath}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

async function ok(method: string, apiPath: string, body?: unknown, token = tokens.superAdmin) {
  const result = await call(method, apiPath, body, token);
  if (result.status >= 300) throw new Error(`${method} ${apiPath}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

/** A new admin user with the given role, registered the way an invitation link does; its token. */
async function adminWithRole(roleId: number, name: string): Promise<string> {
  const email = `${name.toLowerCase()}@example.com`;
  const { data: invited } = await ok("POST", "/admin/users", {
    email,
    firstname: name,
    lastname: "Test",
    roles: [roleId],
  });
  const registered = await call("POST", "/admin/register", {
    registrationToken: invited.registrationToken,
    userInfo: { firstname: name, lastname: "Test", password: `${name}Pass12345` },
  });
  if (registered.status !== 200)
    throw new Error(`register ${email}: ${registered.status} ${JSON.stringify(registered.body)}`);
  return registered.body.data.token as string;
}

/** The three admin actions, each with a valid body. */
const adminActions = [
  {
    name: "manual revalidation",
    path: "/site-cache/revalidate",
    body: { tags: ["cms:api::navbar.navbar"] },
    action: ACTIONS.revalidate,
  },
  { name: "CDN purge", path: "/site-cache/cdn-purge", body: { everything: true }, action: ACTIONS.purgeCdn },
  {
    name: "hierarchy recalculation",
    path: "/site-cache/page-hierarchy/recalculate",
    body: {},
    action: ACTIONS.recalculateHierarchy,
  },
];

async function editorPermissions(): Promise<Json[]> {
  return (await ok("GET", `/admin/roles/${editorRoleId}/permissions`)).data as Json[];
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cms-admin-permission-"));
  await frontEnd.start();
  cms = await startTheCms(true);
  const login = await call("POST", "/admin/login", { email: "admin@example.com", password: "Admin12345" });
  tokens.superAdmin = login.body.data.token;
  const { data: roles } = await ok("GET", "/admin/roles");
  const roleId = (code: string) => (roles as Json[]).find((role) => role.code === code)!.id as number;
  editorRoleId = roleId("strapi-editor");
  tokens.editor = await adminWithRole(editorRoleId, "Editor");
  tokens.author = await adminWithRole(roleId("strapi-author"), "Author");
}, TIMEOUT);

afterAll(async () => {
  await cms?.stop();
  await frontEnd.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  frontEnd.requests.length = 0;
  frontEnd.revalidateStatus = 200;
  frontEnd.purgeStatus = 200;
});

describe("CMS admin actions need the right admin role", () => {
  it("an Author is refused (403) on revalidation, CDN purge and hierarchy; nothing reaches the front end", async () => {
    for (const { name, path: apiPath, body, action } of adminActions) {
      const result = await call("POST", apiPath, body, tokens.author);
      expect(result.status, `${name}: ${JSON.stringify(result.body)}`).toBe(403);
      // Strapi's own refusal of a policy (a ForbiddenError): admin::hasPermissions checked `action`.
      expect(result.body.error.name).toBe("PolicyError");
      expect(action).toMatch(/^plugin::site-cache\./);
    }
    expect(frontEnd.requests).toEqual([]);
  });

  it("an Editor and the Super Admin are allowed on all three", async () => {
    for (const [who, token] of [
      ["Editor", tokens.editor],
      ["Super Admin", tokens.superAdmin],
    ]) {
      frontEnd.requests.length = 0;
      for (const { name, path: apiPath, body } of adminActions) {
        const result = await call("POST", apiPath, body, token);
        expect(result.status, `${who}, ${name}: ${JSON.stringify(result.body)}`).toBe(200);
      }
      // The revalidation and the purge reached the front end (the recalculation had nothing to move).
      expect(frontEnd.requests.map((r) => r.url)).toEqual(["/api/cms-revalidate", "/api/cdn-purge"]);
    }
  });

  it("the actions are admin permissions, shown per role: the Editor has them, the Author not", async () => {
    const held = (permissions: Json[]) =>
      permissions.map((p) => p.action).filter((a: string) => a.startsWith("plugin::site-cache."));
    expect(held(await editorPermissions()).sort()).toEqual(Object.values(ACTIONS).sort());
    const { data: roles } = await ok("GET", "/admin/roles");
    const authorId = (roles as Json[]).find((role) => role.code === "strapi-author")!.id;
    expect(held((await ok("GET", `/admin/roles/${authorId}/permissions`)).data)).toEqual([]);
  });

  it(
    "the Editor's grant is made once: removed by an admin, it stays removed after a restart, and nothing is duplicated",
    async () => {
      // An admin takes "Purge the CDN" away from the Editor role in the role editor.
      const kept = (await editorPermissions())
        .filter((p) => p.action !== ACTIONS.purgeCdn)
        .map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
      await ok("PUT", `/admin/roles/${editorRoleId}/permissions`, { permissions: kept });
      expect((await call("POST", "/site-cache/cdn-purge", { everything: true }, tokens.editor)).status).toBe(403);

      await cms.stop();
      cms = await startTheCms(false);

      const actions = (await editorPermissions()).map((p) => p.action as string);
      expect(actions.filter((a) => a === ACTIONS.purgeCdn)).toHaveLength(0);
      expect(actions.filter((a) => a === ACTIONS.revalidate)).toHaveLength(1);
      expect(actions.filter((a) => a === ACTIONS.recalculateHierarchy)).toHaveLength(1);
      expect((await call("POST", "/site-cache/cdn-purge", { everything: true }, tokens.editor)).status).toBe(403);
      expect(
        (await call("POST", "/site-cache/revalidate", { tags: ["cms:api::footer.footer"] }, tokens.editor)).status,
      ).toBe(200);
      expect((await call("POST", "/site-cache/cdn-purge", { everything: true }, tokens.superAdmin)).status).toBe(200);
    },
    TIMEOUT,
  );
});

describe("the admin's Site cache page: recorded revalidation failures", () => {
  const FAILURES = "/site-cache/failures";

  it("needs an admin token (401) with the revalidate permission (403 for an Author)", async () => {
    for (const [method, apiPath] of [
      ["GET", FAILURES],
      ["POST", `${FAILURES}/retry`],
    ] as const) {
      expect((await call(method, apiPath)).status, `${method} ${apiPath} without a token`).toBe(401);
      const refused = await call(method, apiPath, method === "POST" ? {} : undefined, tokens.author);
      expect(refused.status, `${method} ${apiPath} as an Author`).toBe(403);
      expect(refused.body.error.name).toBe("PolicyError");
    }
    expect(frontEnd.requests).toEqual([]);
  });

  it("an Editor sees a revalidation the site did not accept, and Retry now delivers it", async () => {
    expect((await ok("GET", FAILURES, undefined, tokens.editor)).meta.total).toBe(0);

    frontEnd.revalidateStatus = 503;
    const refused = await call("POST", "/site-cache/revalidate", { tags: ["cms:api::footer.footer"] }, tokens.editor);
    expect(refused.status, JSON.stringify(refused.body)).toBe(502);
    const listed = await ok("GET", FAILURES, undefined, tokens.editor);
    expect(listed.meta.total).toBe(1);
    expect(listed.data).toEqual([
      expect.objectContaining({
        uid: "api::footer.footer",
        what: "cms:api::footer.footer",
        state: "pending",
        takedown: false,
        lastStatus: 503,
      }),
    ]);

    frontEnd.revalidateStatus = 200;
    frontEnd.requests.length = 0;
    expect((await ok("POST", `${FAILURES}/retry`, {}, tokens.editor)).data).toEqual({
      retried: 1,
      delivered: 1,
      refused: 0,
    });
    // Delivered, then the CDN purged, as for every revalidation when a purge is configured (decision 0028).
    expect(frontEnd.requests.map((r) => r.url)).toEqual(["/api/cms-revalidate", "/api/cdn-purge"]);
    expect(await ok("GET", FAILURES, undefined, tokens.editor)).toEqual({ data: [], meta: { total: 0, inFlight: 0 } });
  });
});

// The admin's buttons are built from the content types' declarations (their schemas'
// pluginOptions["site-cache"]), not from a list of types in the admin code.
const DECLARED = {
  "api::article.article": { single: false, path: "/blog/{slug}", localized: true },
  "api::author.author": { single: false, path: null, localized: false },
  "api::category.category": { single: false, path: "/blog/category/{slug}", localized: true },
  "api::error-page.error-page": { single: true, path: null, localized: true },
  "api::footer.footer": { single: true, path: null, localized: true },
  "api::navbar.navbar": { single: true, path: null, localized: true },
  "api::page.page": { single: false, path: "{fullPath}", localized: true },
  "api::redirect.redirect": { single: false, path: "{source}", localized: false },
};

describe("the admin's buttons are built from the declared content types", () => {
  it("GET /site-cache/content-types: every declared type, for an admin who may revalidate; 401 without a token, 403 for an Author", async () => {
    expect(await ok("GET", "/site-cache/content-types", undefined, tokens.editor)).toEqual({
      data: { types: DECLARED },
    });
    expect((await call("GET", "/site-cache/content-types")).status).toBe(401);
    const refused = await call("GET", "/site-cache/content-types", undefined, tokens.author);
    expect(refused.status).toBe(403);
    expect(refused.body.error.name).toBe("PolicyError");
  });
});

describe("the admin's purge buttons show only when a CDN purge is set up", () => {
  it("GET /site-cache/capabilities says so to an admin who may purge; 401 without a token, 403 for an Author", async () => {
    expect(await ok("GET", "/site-cache/capabilities")).toEqual({ data: { cdnPurge: true, types: DECLARED } });
    expect((await call("GET", "/site-cache/capabilities")).status).toBe(401);
    const refused = await call("GET", "/site-cache/capabilities", undefined, tokens.author);
    expect(refused.status).toBe(403);
    expect(refused.body.error.name).toBe("PolicyError");
  });

  it("a site without a CDN (its 501) is refused in an editor's words; the operator's hint goes to the log", async () => {
    frontEnd.purgeStatus = 501;
    const refused = await call("POST", "/site-cache/cdn-purge", { everything: true }, tokens.superAdmin);
    expect(refused.status).toBe(501);
    expect(refused.body.error.message).toBe("There is no CDN in front of this site, so there is nothing to purge.");
    expect(JSON.stringify(refused.body)).not.toMatch(/CDN_PROVIDER|CMS_CDN_PURGE_SECRET|front end/);
    expect(frontEnd.requests.map((r) => r.url)).toEqual(["/api/cdn-purge"]);
  });
});
