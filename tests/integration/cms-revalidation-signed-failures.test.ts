import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { adminCall, adminOk, adminRoleId, adminWithRole, superAdminToken, type Json } from "../support/admin-users.ts";
import { runOnCmsDatabase } from "../support/cms-accounts.ts";
import { startCms, TEST_SECRETS, type CmsHandle } from "../support/cms-server.ts";

/**
 * The retry of recorded revalidation failures sends only what the CMS itself recorded (docs/security.md,
 * finding 40; docs/decisions/0030-signed-revalidation-failures.md). An Author used to create a
 * `revalidation-failure` row (pending, a takedown of every page) in the Content Manager, and the
 * retry sent it with CMS_REVALIDATE_SECRET: every page expired, then a CDN purge. Rows written into the
 * database here stand for what an editor could write then: the real Strapi's retry refuses them
 * (marked rejected) and still delivers a genuine failure.
 */

const PORT = await getPort();
const TIMEOUT = 240_000;
const REVALIDATE_SECRET = "test-cms-revalidate-secret-0123456789";
const PURGE_SECRET = "test-cdn-purge-secret-0123456789abcdef";
const TAKEDOWN_OF_EVERYTHING = { next: { tags: ["cms:api::navbar.navbar"], expire: true } };
const signature = createRequire(import.meta.url)(
  "../../packages/strapi-plugin-site-cache/server/services/revalidation/failure-signature.js",
) as { createFailureSigner(keys: string[]): { sign(uid: string, payload: unknown): string } };

/** The site's stand-in: records what the CMS sends; answers revalidations with `revalidateStatus`. */
class SiteStandIn {
  readonly requests: Array<{ url: string | undefined; body: Json }> = [];
  revalidateStatus = 200;
  private server!: Server;
  url = "";

  async start() {
    this.server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        this.requests.push({ url: req.url, body: JSON.parse(text || "{}") as Json });
        const status = req.url === "/api/cms-revalidate" ? this.revalidateStatus : 200;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(req.url === "/api/cdn-purge" ? { purged: true } : { revalidated: status === 200 }));
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

const site = new SiteStandIn();
let dir: string;
let cms: CmsHandle;
let token: string;

/** A failure row written straight into the database, as the Content Manager's create wrote one. */
function writeFailureRow(uid: string, payload: unknown, signed: string | null, documentId: string) {
  const now = Date.now();
  runOnCmsDatabase(
    cms.dbFile,
    `INSERT INTO revalidation_failures (document_id, uid, payload, signature, state, attempts, created_at, updated_at, published_at)
     VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
    documentId,
    uid,
    JSON.stringify(payload),
    signed,
    now,
    now,
    now,
  );
}

const failures = async () => (await adminOk(cms.url, "GET", "/site-cache/failures", token)).data as Json[];
const retryNow = async () => (await adminOk(cms.url, "POST", "/site-cache/failures/retry", token, {})).data as Json;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cms-signed-failures-"));
  await site.start();
  cms = await startCms({
    port: PORT,
    dbFile: path.join(dir, "cms.db"),
    fresh: true,
    env: {
      CLIENT_URL: site.url,
      CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
      CMS_CDN_PURGE_SECRET: PURGE_SECRET,
      CMS_REVALIDATE_RETRIES: "0",
      CMS_CDN_PURGE_RETRIES: "0",
      // No periodic pass: each test retries by hand (the failures page's "Retry now") and counts.
      CMS_REVALIDATE_RETRY_INTERVAL_MS: "0",
    },
  });
  token = await superAdminToken(cms.url);
}, TIMEOUT);

afterAll(async () => {
  await cms?.stop();
  await site.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  site.requests.length = 0;
  site.revalidateStatus = 200;
});

describe("the retry of recorded failures sends only what the CMS recorded (finding 40)", () => {
  it("a forged or altered row is never sent and is marked rejected; a genuine failure is still delivered", async () => {
    site.revalidateStatus = 503;
    const refused = await adminCall(cms.url, "POST", "/site-cache/revalidate", {
      token,
      body: { tags: ["cms:api::footer.footer"] },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(502);
    expect(await failures()).toEqual([expect.objectContaining({ uid: "api::footer.footer", state: "pending" })]);

    // An unsigned takedown of every page (what an Author created), and the genuine row's signature
    // copied onto that takedown.
    writeFailureRow("api::navbar.navbar", TAKEDOWN_OF_EVERYTHING, null, "forged-unsigned");
    runOnCmsDatabase(
      cms.dbFile,
      `INSERT INTO revalidation_failures (document_id, uid, payload, signature, state, attempts)
       SELECT 'forged-copied', uid, ?, signature, 'pending', 0 FROM revalidation_failures WHERE uid = 'api::footer.footer'`,
      JSON.stringify({ uid: "api::footer.footer", ...TAKEDOWN_OF_EVERYTHING }),
    );

    site.revalidateStatus = 200;
    site.requests.length = 0;
    expect(await retryNow()).toEqual({ retried: 1, delivered: 1, refused: 2 });
    expect(site.requests).toEqual([
      { url: "/api/cms-revalidate", body: { uid: "api::footer.footer", next: { tags: ["cms:api::footer.footer"] } } },
      { url: "/api/cdn-purge", body: { tags: ["cms:api::footer.footer"], soft: true } },
    ]);
    const left = await failures();
    expect(left).toHaveLength(2);
    for (const row of left)
      expect(row).toMatchObject({
        state: "rejected",
        takedown: true,
        what: "cms:api::navbar.navbar",
        lastError: expect.stringMatching(/^Not sent: its signature does not verify/),
      });

    // Rejected: not looked at again, by "Retry now" or any later pass.
    site.requests.length = 0;
    expect(await retryNow()).toEqual({ retried: 0, delivered: 0, refused: 0 });
    expect(site.requests).toEqual([]);
  });

  it("a rejected failure is removed through the Site cache page's route (revalidate permission), not by an Author", async () => {
    const rejected = (await failures()).filter((row) => row.state === "rejected");
    expect(rejected.length).toBeGreaterThan(0);
    const author = await adminWithRole(cms.url, token, await adminRoleId(cms.url, token, "strapi-author"), "Author");
    const byAuthor = await adminCall(cms.url, "DELETE", `/site-cache/failures/${rejected[0]!.id}`, { token: author });
    expect(byAuthor.status).toBe(403);
    expect(await adminOk(cms.url, "DELETE", `/site-cache/failures/${rejected[0]!.id}`, token)).toEqual({
      data: { id: rejected[0]!.id },
    });
    expect((await failures()).map((row) => row.id)).not.toContain(rejected[0]!.id);
    const again = await adminCall(cms.url, "DELETE", `/site-cache/failures/${rejected[0]!.id}`, { token });
    expect(again.status).toBe(404);
    expect((await adminCall(cms.url, "DELETE", "/site-cache/failures/x", { token })).status).toBe(400);
  });

  // Each row a pass sends costs its claim, the revalidation, the CDN purge and its deletion: a second
  // a row is room for a machine whose cores are busy with other tests.
  const ROWS = 120;
  it(
    "a pass sends at most 100 recorded failures; the rest wait for the next pass",
    async () => {
      const signer = signature.createFailureSigner(TEST_SECRETS.APP_KEYS!.split(","));
      const now = Date.now();
      const rows = Array.from({ length: ROWS }, (_, i) => {
        const payload = { uid: "api::page.page", next: { fullPaths: [`/bounded-${i}`] } };
        return [`bounded-${i}`, "api::page.page", JSON.stringify(payload), signer.sign("api::page.page", payload)];
      });
      runOnCmsDatabase(
        cms.dbFile,
        `INSERT INTO revalidation_failures (document_id, uid, payload, signature, state, attempts, created_at, updated_at, published_at)
         VALUES ${rows.map(() => "(?, ?, ?, ?, 'pending', 0, ?, ?, ?)").join(", ")}`,
        ...rows.flatMap((row) => [...row, now, now, now]),
      );
      expect(await retryNow()).toEqual({ retried: 100, delivered: 100, refused: 0 });
      const revalidations = () => site.requests.filter((request) => request.url === "/api/cms-revalidate");
      expect(revalidations()).toHaveLength(100);
      expect(await retryNow()).toEqual({ retried: ROWS - 100, delivered: ROWS - 100, refused: 0 });
      expect(revalidations().map((request) => request.body.next.fullPaths[0])).toEqual(
        Array.from({ length: ROWS }, (_, i) => `/bounded-${i}`),
      );
    },
    ROWS * 1_000,
  );
});
