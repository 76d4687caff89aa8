import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

import { documentTag, listTag } from "@cms-site/cache-tags";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startFixtureApp, type FixtureApp } from "../support/fixture-app.ts";
import freePort from "../support/free-port.ts";
import { startFreshStrapi, type FreshStrapi } from "../support/fresh-strapi.ts";
import { packWorkspacePackage } from "../support/packed-packages.ts";
import { until } from "../support/wait.ts";

/**
 * The engine outside this repository, both halves at once. The three packages are packed with
 * `npm pack`, as a registry would serve them; the Strapi plugin (with @cms-site/cache-tags) is
 * installed from its tarball into a fresh Strapi 5 project that has nothing of this site
 * (tests/fixtures/strapi-fixture-project: one content type, `api::note.note`, declared with
 * `"site-cache": { "path": "/notes/{slug}" }`; the plugin starts itself), and the page cache
 * (with @cms-site/cache-tags) into a React Router app that is not this site
 * (tests/fixtures/rr-fixture-app: `/notes`, `/notes/:slug`, read from that Strapi). An editor's
 * publish, edit and unpublish in that Strapi reach the app's POST /api/cms-revalidate, and its
 * cached pages follow. Between the two sits a recorder that forwards each revalidation and keeps
 * what it carried. Its own Strapi and two npm installs: it runs alone
 * (tests/support/integration-groups.ts). Each package's README describes the same install.
 */

const SECRET = "fixture-revalidate-secret-0123456789";
const NOTE = "api::note.note";
const TIMEOUT = 600_000;

interface Revalidation {
  authorization: string | undefined;
  body: { uid: string; next: { fullPaths?: string[]; tags?: string[]; expire?: boolean } };
  /** What the app answered. */
  status: number;
}

const received: Revalidation[] = [];
let recorder: Server;
let strapi: FreshStrapi;
let app: FixtureApp;
let packs: string;

/** Forwards POST /api/cms-revalidate to the app (once it is up) and records what it carried and the answer. */
async function startRecorder(port: number, target: () => string | undefined): Promise<Server> {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", async () => {
      const to = target();
      if (req.method !== "POST" || req.url !== "/api/cms-revalidate" || !to) return void res.writeHead(503).end();
      const answer = await fetch(`${to}/api/cms-revalidate`, {
        method: "POST",
        headers: { authorization: req.headers.authorization ?? "", "content-type": "application/json" },
        body: text,
      });
      const body = await answer.text();
      received.push({ authorization: req.headers.authorization, body: JSON.parse(text), status: answer.status });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(body);
    });
  });
  server.listen(port, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return server;
}

beforeAll(async () => {
  packs = mkdtempSync(path.join(tmpdir(), "engine-packs-"));
  const [tags, pageCache, plugin] = [
    await packWorkspacePackage("packages/cache-tags", packs),
    await packWorkspacePackage("packages/page-cache", packs),
    await packWorkspacePackage("packages/strapi-plugin-site-cache", packs),
  ];
  const [recorderPort, strapiPort] = [await freePort(), await freePort()];
  recorder = await startRecorder(recorderPort, () => app?.url);
  // Both installs at once: neither needs the other until a note is written.
  [strapi, app] = await Promise.all([
    startFreshStrapi({
      siteUrl: `http://127.0.0.1:${recorderPort}`,
      revalidateSecret: SECRET,
      tarballs: [tags, plugin],
      port: strapiPort,
    }),
    startFixtureApp({
      cmsUrl: `http://127.0.0.1:${strapiPort}`,
      revalidateSecret: SECRET,
      tarballs: [tags, pageCache],
    }),
  ]);
  console.log(
    `[packages-outside] Strapi: npm install ${Math.round(strapi.installMs / 1000)} s, start ${Math.round(strapi.startMs / 1000)} s`,
  );
}, TIMEOUT);

afterAll(async () => {
  await Promise.all([strapi?.stop(), app?.stop()]);
  await new Promise((resolve) => (recorder ? recorder.close(resolve) : resolve(undefined)));
  if (packs) rmSync(packs, { recursive: true, force: true });
}, 60_000);

/** The first revalidation the app answered after the first `count`. */
const next = async (count: number): Promise<Revalidation> =>
  (
    await until(
      "the site-cache plugin's revalidation, answered by the app",
      () => received.slice(count),
      (news) => news.length > 0,
      { timeoutMs: 15_000 },
    )
  )[0]!;

const get = async (pathname: string) => {
  const response = await fetch(`${app.url}${pathname}`);
  return { status: response.status, cache: response.headers.get("x-cache"), html: await response.text() };
};

/** The app's page at `pathname`, once it is what `ok` wants (a revalidated page is STALE once). */
const pageWhen = (what: string, pathname: string, ok: (page: Awaited<ReturnType<typeof get>>) => boolean) =>
  until(what, () => get(pathname), ok, { timeoutMs: 15_000 });

describe("the engine's packages, installed from their tarballs into a fresh Strapi 5 project and another React Router app", () => {
  it("the plugin starts itself: the note type's declaration is read, the revalidation is on, no hierarchy, no scheduler", () => {
    const log = strapi.log();
    expect(log).toContain(`[revalidate] declared content types: ${NOTE}`);
    expect(log).toMatch(/\[revalidate\] on: http:\/\/127\.0\.0\.1:\d+\/api\/cms-revalidate/);
    expect(log).not.toContain("[schedule] scheduled publishing");
  });

  it("a publish, an edit and an unpublish in Strapi: the app's cached pages follow each", async () => {
    // Before anything is published: the app caches its 404 and an empty list.
    expect((await get("/notes/hello")).status).toBe(404);
    expect((await get("/notes")).html).not.toContain("Hello");
    expect((await get("/notes")).cache).toBe("HIT");

    const { documentId } = await strapi.notes.create({ title: "Hello", slug: "hello", body: "First." });
    await strapi.notes.publish(documentId);
    const published = await next(0);
    expect(published).toMatchObject({ authorization: `Bearer ${SECRET}`, status: 200 });
    expect(published.body.uid).toBe(NOTE);
    expect(published.body.next.fullPaths).toEqual(["/notes/hello"]);
    expect(published.body.next.tags).toEqual(
      expect.arrayContaining([documentTag(NOTE, documentId), listTag(NOTE, "*")]),
    );
    expect(published.body.next.expire).toBeUndefined();
    // The cached 404 expired with the revalidation: the very next visitor gets the note.
    const page = await get("/notes/hello");
    expect(page.status).toBe(200);
    expect(page.html).toContain("First.");
    await pageWhen("the list with the note", "/notes", (list) => list.cache === "HIT" && list.html.includes("Hello"));

    const count = received.length;
    await strapi.notes.publish(documentId, { title: "Hello again", slug: "hello-again", body: "Edited." });
    const edited = await next(count);
    expect(edited).toMatchObject({ authorization: `Bearer ${SECRET}`, status: 200 });
    // Its old address and its new one.
    expect(edited.body.next.fullPaths?.sort()).toEqual(["/notes/hello", "/notes/hello-again"]);
    expect(edited.body.next.tags).toEqual(expect.arrayContaining([documentTag(NOTE, documentId), listTag(NOTE, "*")]));
    expect((await get("/notes/hello-again")).html).toContain("Edited.");
    await pageWhen("the old address gone", "/notes/hello", (old) => old.status === 404);
    await pageWhen(
      "the list with the new title",
      "/notes",
      (list) => list.cache === "HIT" && list.html.includes("Hello again"),
    );

    const before = received.length;
    await strapi.notes.unpublish(documentId);
    const takenDown = await next(before);
    expect(takenDown).toMatchObject({ authorization: `Bearer ${SECRET}`, status: 200 });
    expect(takenDown.body.next).toEqual({
      fullPaths: ["/notes/hello-again"],
      tags: expect.arrayContaining([documentTag(NOTE, documentId), listTag(NOTE, "*")]),
      expire: true,
    });
    // A takedown expires: the very next visitor, not the one after, gets the 404.
    expect((await get("/notes/hello-again")).status).toBe(404);
    expect((await get("/notes")).html).not.toContain("Hello again");
  }, 90_000);
});
