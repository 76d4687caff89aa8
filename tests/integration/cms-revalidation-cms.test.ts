import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startCms, type CmsHandle } from "../support/cms-server.ts";
import { until } from "../support/wait.ts";

/**
 * The CMS side of revalidation against the real Strapi: editor writes through the admin
 * content-manager API reach a tiny front-end stand-in (a node:http receiver on loopback)
 * as POST /api/cms-revalidate with the Bearer secret — once, with the right payload —
 * retried on 5xx / network errors, not retried on 401, recorded when not delivered and
 * delivered later; the manual endpoint and the hierarchy action.
 *
 * "Nothing else was sent" is checked once the CMS has settled every revalidation of the writes
 * made so far (its in-flight counter is 0; a write's revalidation is counted from its commit,
 * before the write is answered), never after a pause.
 */

const TIMEOUT = 240_000;
const SECRET = "test-cms-revalidate-secret-0123456789";
type Json = Record<string, any>;

interface Received {
  authorization: string | undefined;
  url: string | undefined;
  body: Json;
}

/**
 * Answers from `script` in order (a number: that status; "drop": the socket is destroyed), then
 * 200. `requests` records every request that got an answer; `arrivals`, the uid of every request
 * (dropped ones too).
 */
class Receiver {
  readonly requests: Received[] = [];
  readonly arrivals: string[] = [];
  readonly commitTimes: unknown[] = [];
  script: Array<number | "drop"> = [];
  private server!: Server;
  url = "";

  async start() {
    this.server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        const answer = this.script.shift() ?? 200;
        this.arrivals.push(JSON.parse(text || "{}").uid);
        if (answer === "drop") {
          req.socket.destroy();
          return;
        }
        // A publish carries the CMS's commit time (publish_to_visible_seconds, decision 0028): kept apart.
        const { committedAt, ...body } = JSON.parse(text || "{}") as Json;
        if (committedAt !== undefined) this.commitTimes.push(committedAt);
        this.requests.push({ authorization: req.headers.authorization, url: req.url, body });
        res.writeHead(answer, { "content-type": "application/json" });
        res.end(JSON.stringify(answer === 200 ? { revalidated: true } : { error: `status ${answer}` }));
      });
    });
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset() {
    this.requests.length = 0;
    this.arrivals.length = 0;
    this.commitTimes.length = 0;
    this.script = [];
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Waits until the receiver has at least n requests. */
const received = (n: number) =>
  until(
    `${n} request(s) at the receiver`,
    () => receiver.requests.length,
    (length) => length >= n,
  );

let dir: string;
let cms: CmsHandle;
let token: string;
const receiver = new Receiver();

async function call(method: string, apiPath: string, body?: unknown, auth: string | null = `Bearer ${token}`) {
  const response = await fetch(`${cms.url}${apiPath}`, {
    method,
    headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

const PAGES = "/content-manager/collection-types/api::page.page";

async function ok(method: string, apiPath: string, body?: unknown) {
  const result = await call(method, apiPath, body);
  if (result.status >= 300) throw new Error(`${method} ${apiPath}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

/**
 * The tags of a page write (docs/cms-contract.md, "What a write sends"): the page's document tag
 * (C2), then — a first publish, an unpublish or a delete: a change of the published list (C3) — the
 * page list's tags in its locale and in every locale (the sitemap records `list:*`), then the
 * document tags of its published child pages (C5: a child's `parent` links to it). No bare type tag.
 */
const PAGE_TAG = "cms:api::page.page";
const pageTags = (documentId: string, { listed = null as string | null, children = [] as string[] } = {}) => [
  `${PAGE_TAG}:${documentId}`,
  ...(listed ? [`${PAGE_TAG}:list:${listed}`, `${PAGE_TAG}:list:*`] : []),
  ...children.map((child) => `${PAGE_TAG}:${child}`),
];

async function pageId(fullPath: string, locale = "en") {
  const query = new URLSearchParams({ locale, "filters[fullPath][$eq]": fullPath });
  const { results } = await ok("GET", `${PAGES}?${query}`);
  if (!results[0]) throw new Error(`no page ${fullPath}`);
  return results[0].documentId as string;
}

async function createPage(locale: string, data: Json, parent?: string) {
  const body = { ...data, ...(parent ? { parent: { connect: [{ documentId: parent, locale }] } } : {}) };
  const { data: created } = await ok("POST", `${PAGES}?locale=${locale}`, body);
  await ok("POST", `${PAGES}/${created.documentId}/actions/publish?locale=${locale}`, {});
  return created.documentId as string;
}

async function redirects() {
  const { results } = await ok("GET", "/content-manager/collection-types/api::redirect.redirect?pageSize=100");
  return Object.fromEntries((results as Json[]).map((r) => [r.source, r.destination]));
}

/** The recorded failures, as the admin's Site cache page lists them (the type is not in the Content Manager). */
async function failures() {
  const { data } = await ok("GET", "/site-cache/failures");
  return data as Json[];
}

const noFailuresLeft = () => until("no recorded failures", failures, (left) => left.length === 0);

/**
 * What the receiver got once the CMS has settled the revalidations of every write so far
 * (GET /site-cache/failures: meta.inFlight is 0): nothing more can follow from them.
 */
async function settled() {
  await until(
    "the CMS's revalidations to settle",
    async () => (await ok("GET", "/site-cache/failures")).meta.inFlight as number,
    (inFlight) => inFlight === 0,
  );
  return receiver.requests;
}

/**
 * Waits for n requests and for the CMS to settle; exactly n, all to the right place with the
 * secret. Their bodies without the field tags of C7 (what a republish changed, the other sides of
 * relations: cms/tests/plugins/site-cache/…/field-tags.test.js and declared-types.test.js).
 */
async function expectRequests(n: number) {
  await received(n);
  expect(await settled()).toHaveLength(n);
  for (const request of receiver.requests) {
    expect(request.url).toBe("/api/cms-revalidate");
    expect(request.authorization).toBe(`Bearer ${SECRET}`);
  }
  return receiver.requests.map(({ body }) =>
    body.next?.tags
      ? { ...body, next: { ...body.next, tags: (body.next.tags as string[]).filter((t) => !t.includes(":field:")) } }
      : body,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cms-revalidation-"));
  await receiver.start();
  cms = await startCms({
    port: await getPort(),
    dbFile: path.join(dir, "cms.db"),
    fresh: true,
    env: {
      CLIENT_URL: receiver.url,
      CMS_REVALIDATE_SECRET: SECRET,
      CMS_REVALIDATE_RETRIES: "2",
      CMS_REVALIDATE_BACKOFF_MS: "100",
      CMS_REVALIDATE_TIMEOUT_MS: "2000",
      CMS_REVALIDATE_RETRY_INTERVAL_MS: "1000",
      // Wide enough that two saves made one after the other are one batch (decision 0028).
      CMS_REVALIDATE_BATCH_WINDOW_MS: "400",
    },
  });
  const login = await call("POST", "/admin/login", { email: "admin@example.com", password: "Admin12345" }, null);
  token = login.body.data.token;
}, TIMEOUT);

afterAll(async () => {
  await cms?.stop();
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => receiver.reset());

describe("automatic revalidation from editor writes", () => {
  it("the seed sent nothing; a page edit+publish sends exactly one POST with its path", async () => {
    const id = await pageId("/company");
    const careers = await pageId("/company/careers");
    await ok("PUT", `${PAGES}/${id}?locale=en`, { title: "Company (edited)" });
    expect(await settled()).toHaveLength(0); // a draft save is invisible to the site
    await ok("POST", `${PAGES}/${id}/actions/publish?locale=en`, {});
    expect(await expectRequests(1)).toEqual([
      { uid: "api::page.page", next: { fullPaths: ["/company"], tags: pageTags(id, { children: [careers] }) } },
    ]);
  });

  it("a page in another locale is sent with its locale prefix", async () => {
    const id = await pageId("/company", "de");
    const careers = await pageId("/company/careers");
    await ok("POST", `${PAGES}/${id}/actions/publish?locale=de`, { title: "Unternehmen (neu)" });
    expect(await expectRequests(1)).toEqual([
      { uid: "api::page.page", next: { fullPaths: ["/de/company"], tags: pageTags(id, { children: [careers] }) } },
    ]);
  });

  it("a navbar or footer update sends its tag; both within the batch window: one request (decision 0028)", async () => {
    await ok("PUT", "/content-manager/single-types/api::navbar.navbar?locale=en", {
      links: [{ label: "Home", url: "/" }],
    });
    expect(await expectRequests(1)).toEqual([
      { uid: "api::navbar.navbar", next: { tags: ["cms:api::navbar.navbar"] } },
    ]);
    receiver.reset();
    await ok("PUT", "/content-manager/single-types/api::footer.footer?locale=de", { note: "© Acme GmbH (neu)" });
    expect(await expectRequests(1)).toEqual([
      { uid: "api::footer.footer", next: { tags: ["cms:api::footer.footer"] } },
    ]);
    receiver.reset();
    // Saved one right after the other (the CMS answers a save without waiting for the site here):
    // the revalidations are merged into one request.
    await ok("PUT", "/content-manager/single-types/api::navbar.navbar?locale=en", {
      links: [{ label: "Home", url: "/" }],
    });
    await ok("PUT", "/content-manager/single-types/api::footer.footer?locale=de", { note: "© Acme GmbH" });
    expect(await expectRequests(1)).toEqual([
      {
        uid: "api::navbar.navbar",
        next: { tags: ["cms:api::navbar.navbar", "cms:api::footer.footer"] },
        batched: 2,
      },
    ]);
    expect(receiver.commitTimes.every((time) => typeof time === "number")).toBe(true);
  });

  it("a new page, its unpublish and its delete each send its path; unpublish, delete expire (takedowns)", async () => {
    const id = await createPage("en", { title: "Fresh", slug: "rv-fresh" });
    expect(await expectRequests(1)).toEqual([
      { uid: "api::page.page", next: { fullPaths: ["/rv-fresh"], tags: pageTags(id, { listed: "en" }) } },
    ]);
    receiver.reset();
    await ok("POST", `${PAGES}/${id}/actions/unpublish?locale=en`, {});
    expect(await expectRequests(1)).toEqual([
      { uid: "api::page.page", next: { fullPaths: ["/rv-fresh"], tags: pageTags(id, { listed: "en" }), expire: true } },
    ]);
    receiver.reset();
    await ok("POST", `${PAGES}/${id}/actions/publish?locale=en`, {});
    expect(await expectRequests(1)).toEqual([
      { uid: "api::page.page", next: { fullPaths: ["/rv-fresh"], tags: pageTags(id, { listed: "en" }) } },
    ]);
    receiver.reset();
    await ok("DELETE", `${PAGES}/${id}?locale=en`);
    expect(await expectRequests(1)).toEqual([
      { uid: "api::page.page", next: { fullPaths: ["/rv-fresh"], tags: pageTags(id, { listed: "en" }), expire: true } },
    ]);
  });

  it("a redirect publish sends its (locale-prefixed) source; a changed source sends old and new", async () => {
    const base = "/content-manager/collection-types/api::redirect.redirect";
    const { data } = await ok("POST", base, { source: "/en/rv-from", destination: "/positions", permanent: true });
    await ok("POST", `${base}/${data.documentId}/actions/publish`, {});
    // C2 its document tag; C3 a first publish changes the list of redirects (not localized: `*` only)
    const tag = `cms:api::redirect.redirect:${data.documentId}`;
    const list = "cms:api::redirect.redirect:list:*";
    expect(await expectRequests(1)).toEqual([
      { uid: "api::redirect.redirect", next: { fullPaths: ["/en/rv-from"], tags: [tag, list] } },
    ]);
    receiver.reset();
    await ok("POST", `${base}/${data.documentId}/actions/publish`, { source: "/en/rv-from-2" });
    // C3: its source is its path field, so a changed one changes the list too
    expect(await expectRequests(1)).toEqual([
      { uid: "api::redirect.redirect", next: { fullPaths: ["/en/rv-from", "/en/rv-from-2"], tags: [tag, list] } },
    ]);
    receiver.reset();
    await ok("DELETE", `${base}/${data.documentId}`);
    expect(await expectRequests(1)).toEqual([
      { uid: "api::redirect.redirect", next: { fullPaths: ["/en/rv-from-2"], tags: [tag, list], expire: true } },
    ]);
  });
});

describe("failures", () => {
  it("5xx and a dropped connection are retried and eventually delivered; the save is not held up", async () => {
    receiver.script = [500, "drop"];
    const id = await pageId("/positions");
    const children = await Promise.all(
      ["frontend-engineer", "backend-engineer", "product-designer"].map((slug) => pageId(`/positions/${slug}`)),
    );
    const started = Date.now();
    await ok("POST", `${PAGES}/${id}/actions/publish?locale=en`, { title: "Open positions (now)" });
    expect(Date.now() - started).toBeLessThan(2_000);
    const payload = { uid: "api::page.page", next: { fullPaths: ["/positions"], tags: pageTags(id, { children }) } };
    // the 500 is recorded by the receiver, the dropped connection is not; the third attempt gets 200
    expect(await expectRequests(2)).toEqual([payload, payload]);
    expect(receiver.script).toEqual([]);
    expect(await failures()).toEqual([]);
  });

  it("front end down for every attempt: the save succeeds, the failure is recorded and delivered later", async () => {
    receiver.script = ["drop", "drop", "drop"];
    const save = await call("PUT", "/content-manager/single-types/api::navbar.navbar?locale=en", {
      links: [
        { label: "Home", url: "/" },
        { label: "Jobs", url: "/positions" },
      ],
    });
    expect(save.status).toBe(200);
    await until(
      "three dropped attempts",
      () => receiver.script.length,
      (left) => left === 0,
    );
    // recorded as pending, then the periodic retry (every 1 s here) delivers it and removes it
    await received(1);
    expect(receiver.requests[0]!.body).toEqual({
      uid: "api::navbar.navbar",
      next: { tags: ["cms:api::navbar.navbar"] },
    });
    expect(await noFailuresLeft()).toEqual([]);
    const log = readFileSync(`${cms.dbFile}.log`, "utf8");
    expect(log).toMatch(/recorded as a revalidation failure \(pending\)/);
    expect(log).toMatch(/delivered on retry/);
  });

  it("401: logged as a secret mismatch, not retried, kept for the operator", async () => {
    receiver.script = [401];
    const id = await pageId("/careers");
    await ok("POST", `${PAGES}/${id}/actions/publish?locale=en`, {});
    await expectRequests(1);
    const recorded = await failures();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!).toMatchObject({ state: "unauthorized", lastStatus: 401, uid: "api::page.page" });
    expect(readFileSync(`${cms.dbFile}.log`, "utf8")).toMatch(/401: CMS_REVALIDATE_SECRET on the CMS does not match/);
    // Not retried: a marker recorded after it (pending: every attempt dropped) is delivered by the
    // periodic retry, which goes through the failures oldest first. Had the 401 been retried, by
    // that run or an earlier one, it would have arrived before the marker's delivery.
    receiver.script = ["drop", "drop", "drop"];
    await ok("PUT", "/content-manager/single-types/api::navbar.navbar?locale=en", {
      links: [{ label: "Home", url: "/" }],
    });
    await received(2);
    const navbar = "api::navbar.navbar";
    expect(receiver.arrivals).toEqual(["api::page.page", navbar, navbar, navbar, navbar]);
    await until("the marker's failure to be removed", failures, (left) => left.length === 1);
    await ok("DELETE", `/site-cache/failures/${recorded[0]!.id}`);
  });
});

describe("POST /site-cache/revalidate (manual)", () => {
  it("needs an admin token: none or a bad one → 401", async () => {
    const none = await call("POST", "/site-cache/revalidate", { tags: ["cms:api::navbar.navbar"] }, null);
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ status: 401, name: "UnauthorizedError" });
    const bad = await call("POST", "/site-cache/revalidate", { tags: ["x"] }, "Bearer not.a.jwt");
    expect(bad.status).toBe(401);
    // a content-API user JWT is not an admin token
    const forged = await call("POST", "/site-cache/revalidate", { tags: ["x"] }, `Bearer ${cms.token}`);
    expect(forged.status).toBe(401);
    expect(receiver.requests).toHaveLength(0);
  });

  it("bad bodies → 400 listing what is wrong", async () => {
    for (const body of [
      {},
      { fullPaths: [] },
      { fullPaths: ["careers"] },
      { tags: ["a b"] },
      { fullPaths: ["/a"], tags: ["t"] },
      { fullPaths: ["/a"], locale: "xx" },
      { fullPaths: ["/a"], extra: 1 },
      { tags: ["t"], expire: "yes" },
    ]) {
      const result = await call("POST", "/site-cache/revalidate", body);
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.error.name).toBe("ValidationError");
      expect(result.body.error.message).toMatch(/^Invalid body: /);
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it("paths with a locale, and tags: sent and answered", async () => {
    const paths = await call("POST", "/site-cache/revalidate", { fullPaths: ["/careers"], locale: "de" });
    expect(paths.status).toBe(200);
    expect(paths.body.data).toMatchObject({
      accepted: true,
      status: 200,
      payload: { uid: "api::page.page", next: { fullPaths: ["/de/careers"] } }, // paths only: no type tag added
    });
    const tags = await call("POST", "/site-cache/revalidate", { tags: ["cms:api::footer.footer"] });
    expect(tags.body.data.payload).toEqual({ uid: "api::footer.footer", next: { tags: ["cms:api::footer.footer"] } });
    expect(await expectRequests(2)).toEqual([paths.body.data.payload, tags.body.data.payload]);
  });

  it("expire: true is sent as a takedown; with no CDN purge secret on the CMS, no purge follows", async () => {
    const result = await call("POST", "/site-cache/revalidate", { tags: ["cms:api::footer.footer"], expire: true });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ accepted: true, purge: null });
    expect(await expectRequests(1)).toEqual([
      { uid: "api::footer.footer", next: { tags: ["cms:api::footer.footer"], expire: true } },
    ]);
  });

  it("the front end refusing → 502 with what was sent", async () => {
    receiver.script = [500, 500, 500];
    const result = await call("POST", "/site-cache/revalidate", { fullPaths: ["/positions"] });
    expect(result.status).toBe(502);
    expect(result.body.data).toMatchObject({ accepted: false, status: 500, attempts: 3, recorded: true });
    await received(4); // 3 × 500, then the periodic retry delivers it
    expect(receiver.requests[3]!.body).toEqual(result.body.data.payload);
    expect(await noFailuresLeft()).toEqual([]);
  });
});

describe("page moves (hierarchy)", () => {
  it("a move: ONE call, old and new paths of the page and below, no redirect chains; moving back undoes", async () => {
    const a = await createPage("en", { title: "A", slug: "rv-a" });
    const b = await createPage("en", { title: "B", slug: "rv-b" });
    const child = await createPage("en", { title: "Child", slug: "child" }, a);
    const grandchild = await createPage("en", { title: "Grandchild", slug: "grand" }, child);
    const base = "/content-manager/collection-types/api::redirect.redirect";
    const { data: old } = await ok("POST", base, { source: "/en/rv-old", destination: "/rv-a/child", permanent: true });
    await ok("POST", `${base}/${old.documentId}/actions/publish`, {});
    // The four pages and the redirect, each published: merged within the batch window (decision 0028).
    const setup = await settled();
    expect(setup.flatMap((request) => (request.body.next.fullPaths as string[] | undefined) ?? [])).toContain(
      "/en/rv-old",
    );
    receiver.reset();

    await ok("POST", `${PAGES}/${child}/actions/publish?locale=en`, {
      parent: { connect: [{ documentId: b, locale: "en" }] },
    });
    const [payload] = (await expectRequests(1)) as [Json];
    expect(payload.uid).toBe("api::page.page");
    // The moved pages' document tags (the child, and the grandchild below it), the published list
    // of pages (C3: its fullPath, the path field, changed: the sitemap lists it), and the child pages
    // lists of the old and the new parent.
    const underParent = (parent: string) => [
      `${PAGE_TAG}:list:en:parent=${parent}`,
      `${PAGE_TAG}:list:*:parent=${parent}`,
    ];
    const pageLists = [`${PAGE_TAG}:list:en`, `${PAGE_TAG}:list:*`];
    expect(payload.next.tags).toEqual([
      ...pageTags(child, { children: [grandchild] }),
      ...pageLists,
      ...underParent(a),
      ...underParent(b),
    ]);
    expect([...payload.next.fullPaths].sort()).toEqual(
      [
        "/rv-a/child",
        "/rv-a/child/grand",
        "/rv-b/child",
        "/rv-b/child/grand",
        "/en/rv-a/child",
        "/en/rv-a/child/grand",
        "/en/rv-old",
      ].sort(),
    );
    expect(await redirects()).toMatchObject({
      "/en/rv-a/child": "/rv-b/child",
      "/en/rv-a/child/grand": "/rv-b/child/grand",
      "/en/rv-old": "/rv-b/child", // updated: no chain through /rv-a/child
    });
    const published = await call(
      "GET",
      `/api/redirects?filters[source][$eq]=/en/rv-a/child`,
      undefined,
      `Bearer ${cms.token}`,
    );
    expect(published.body.data).toHaveLength(1);
    expect(published.body.data[0]).toMatchObject({ destination: "/rv-b/child", permanent: true });

    receiver.reset();
    await ok("POST", `${PAGES}/${child}/actions/publish?locale=en`, {
      parent: { connect: [{ documentId: a, locale: "en" }] },
    });
    const [back] = (await expectRequests(1)) as [Json];
    expect(back.next.tags).toEqual([
      ...pageTags(child, { children: [grandchild] }),
      ...pageLists,
      ...underParent(b),
      ...underParent(a),
    ]);
    const after = await redirects();
    expect(after).not.toHaveProperty("/en/rv-a/child"); // live again: removed (no loop)
    expect(after).not.toHaveProperty("/en/rv-a/child/grand");
    expect(after).toMatchObject({
      "/en/rv-b/child": "/rv-a/child",
      "/en/rv-b/child/grand": "/rv-a/child/grand",
      "/en/rv-old": "/rv-a/child",
    });
  });

  it("POST /site-cache/page-hierarchy/recalculate: admin only; answers what changed", async () => {
    expect((await call("POST", "/site-cache/page-hierarchy/recalculate", {}, null)).status).toBe(401);
    const result = await call("POST", "/site-cache/page-hierarchy/recalculate", {});
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ moved: [], redirects: { created: [], updated: [], removed: [] } });
    expect(await settled()).toHaveLength(0);
  });
});
