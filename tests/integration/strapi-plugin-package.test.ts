import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { documentTag, listTag } from "@cms-site/cache-tags";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import freePort from "../support/free-port.ts";
import { packPackage, startFreshStrapi, type FreshStrapi } from "../support/fresh-strapi.ts";
import { until } from "../support/wait.ts";

/**
 * The site-cache plugin outside this repository: packed with `npm pack` (with
 * @cms-site/cache-tags, its dependency), installed from the tarballs into a fresh Strapi 5
 * project that has nothing of this site (tests/fixtures/strapi-fixture-project: one content type,
 * `api::note.note`, declared with `"site-cache": { "path": "/notes/{slug}" }`, and the plugin's
 * configuration: a site URL and a secret; no page hierarchy), which starts it by itself. A
 * publish, an edit and an unpublish of a note through that Strapi's admin API each reach the
 * site's POST /api/cms-revalidate (a node:http stand-in here) with the note's path, its tags and
 * the secret; the unpublish as a takedown (`expire: true`). Its own Strapi (not the shared CMS):
 * the point is a project that is not this one.
 */

const SECRET = "fixture-revalidate-secret-0123456789";
const NOTE = "api::note.note";
const TIMEOUT = 600_000;

interface Revalidation {
  authorization: string | undefined;
  body: { uid: string; next: { fullPaths?: string[]; tags?: string[]; expire?: boolean } };
}

const received: Revalidation[] = [];
let site: Server;
let strapi: FreshStrapi;
let packs: string;

/** The stand-in site: records each POST /api/cms-revalidate and accepts it. */
async function startSite(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/api/cms-revalidate") {
        received.push({ authorization: req.headers.authorization, body: JSON.parse(text) });
        res.writeHead(200, { "content-type": "application/json" }).end('{"revalidated":true}');
      } else res.writeHead(404).end();
    });
  });
  server.listen(port, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return server;
}

beforeAll(async () => {
  packs = mkdtempSync(path.join(tmpdir(), "strapi-plugin-packs-"));
  const tarballs = [await packPackage("cache-tags", packs), await packPackage("strapi-plugin-site-cache", packs)];
  const port = await freePort();
  site = await startSite(port);
  strapi = await startFreshStrapi({ siteUrl: `http://127.0.0.1:${port}`, revalidateSecret: SECRET, tarballs });
  console.log(
    `[strapi-plugin-package] npm install ${Math.round(strapi.installMs / 1000)} s, strapi start ${Math.round(strapi.startMs / 1000)} s`,
  );
}, TIMEOUT);

afterAll(async () => {
  await strapi?.stop();
  await new Promise((resolve) => site?.close(resolve));
  if (packs) rmSync(packs, { recursive: true, force: true });
}, 60_000);

/** The first revalidation received after the first `count`, once it came. */
const next = async (count: number): Promise<Revalidation> =>
  (
    await until(
      "the site-cache plugin's revalidation",
      () => received.slice(count),
      (news) => news.length > 0,
      { timeoutMs: 15_000 },
    )
  )[0]!;

describe("the site-cache plugin, packed and installed into a fresh Strapi 5 project", () => {
  it("starts itself: the note type's declaration is read, the revalidation is on, no hierarchy, no scheduler", () => {
    const log = strapi.log();
    expect(log).toContain(`[revalidate] declared content types: ${NOTE}`);
    expect(log).toMatch(/\[revalidate\] on: http:\/\/127\.0\.0\.1:\d+\/api\/cms-revalidate/);
    expect(log).not.toContain("[schedule] scheduled publishing");
  });

  it("a publish, an edit and an unpublish revalidate the note's path and tags, with the secret; the unpublish expires", async () => {
    const { documentId } = await strapi.notes.create({ title: "Hello", slug: "hello", body: "First." });
    // A draft is not on the site: nothing is sent for it.
    expect(received).toEqual([]);

    await strapi.notes.publish(documentId);
    const published = await next(0);
    expect(published.authorization).toBe(`Bearer ${SECRET}`);
    expect(published.body.uid).toBe(NOTE);
    expect(published.body.next.fullPaths).toEqual(["/notes/hello"]);
    expect(published.body.next.tags).toEqual(
      expect.arrayContaining([documentTag(NOTE, documentId), listTag(NOTE, "*")]),
    );
    expect(published.body.next.expire).toBeUndefined();
    // The fixture's Public role reads it, as a site would.
    expect((await strapi.publicNotes()).map((note) => note.slug)).toEqual(["hello"]);

    const count = received.length;
    await strapi.notes.publish(documentId, { title: "Hello again", slug: "hello-again", body: "Edited." });
    const edited = await next(count);
    expect(edited.authorization).toBe(`Bearer ${SECRET}`);
    // Its old address and its new one.
    expect(edited.body.next.fullPaths?.sort()).toEqual(["/notes/hello", "/notes/hello-again"]);
    expect(edited.body.next.tags).toEqual(expect.arrayContaining([documentTag(NOTE, documentId), listTag(NOTE, "*")]));

    const before = received.length;
    await strapi.notes.unpublish(documentId);
    const takenDown = await next(before);
    expect(takenDown.authorization).toBe(`Bearer ${SECRET}`);
    expect(takenDown.body.next).toEqual({
      fullPaths: ["/notes/hello-again"],
      tags: expect.arrayContaining([documentTag(NOTE, documentId), listTag(NOTE, "*")]),
      expire: true,
    });
  }, 60_000);
});
