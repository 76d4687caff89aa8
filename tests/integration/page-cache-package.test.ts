import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { documentTag, listTag } from "@cms-site/cache-tags";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startFixtureApp, type FixtureApp } from "../support/fixture-app.ts";
import { packWorkspacePackage } from "../support/packed-packages.ts";
import { until } from "../support/wait.ts";

/**
 * @cms-site/page-cache outside this repository: packed with `npm pack` (with @cms-site/cache-tags),
 * installed from the tarballs into a React Router app that is not this site
 * (tests/fixtures/rr-fixture-app), built and started as its own process, in front of a small
 * stand-in for Strapi 5's REST API (`/api/notes`, collection api::note.note). Its own processes and
 * no Strapi: it may run beside another file (tests/support/integration-groups.ts).
 */

const NOTE = "api::note.note";
const SECRET = "fixture-revalidate-secret-0123456789";

interface Note {
  documentId: string;
  title: string;
  slug: string;
  body: string;
}

/** What the CMS publishes; the test edits it as an editor would, then tells the app. */
const published = new Map<string, Note>([
  ["n1", { documentId: "n1", title: "Hello", slug: "hello", body: "First version." }],
  ["n2", { documentId: "n2", title: "Other", slug: "other", body: "Another note." }],
]);
let cmsRequests = 0;

/** `/api/notes` as Strapi 5 answers it: `{ data: [...] }`, filtered by `filters[slug][$eq]`. */
function startNotesCms(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://cms.local");
    if (url.pathname !== "/api/notes") {
      res.writeHead(404).end();
      return;
    }
    cmsRequests++;
    const slug = url.searchParams.get("filters[slug][$eq]");
    const data = [...published.values()].filter((note) => slug === null || note.slug === slug);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: data.map((note, id) => ({ id, ...note })), meta: {} }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let cms: Server;
let app: FixtureApp;
let packs: string;

beforeAll(async () => {
  packs = mkdtempSync(path.join(tmpdir(), "page-cache-packs-"));
  const tarballs = [
    await packWorkspacePackage("packages/cache-tags", packs),
    await packWorkspacePackage("packages/page-cache", packs),
  ];
  cms = await startNotesCms();
  app = await startFixtureApp({
    cmsUrl: `http://127.0.0.1:${(cms.address() as AddressInfo).port}`,
    revalidateSecret: SECRET,
    tarballs,
  });
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => (cms ? cms.close(resolve) : resolve(undefined)));
  if (packs) rmSync(packs, { recursive: true, force: true });
});

const get = async (pathname: string) => {
  const response = await fetch(`${app.url}${pathname}`);
  return { status: response.status, cache: response.headers.get("x-cache"), html: await response.text(), response };
};

const revalidate = (body: unknown, secret = SECRET) =>
  fetch(`${app.url}/api/cms-revalidate`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("@cms-site/page-cache installed from its tarball in another React Router app", () => {
  it("caches a page: the second visitor gets a HIT, and the CMS is not asked again", async () => {
    const first = await get("/notes/hello");
    expect(first).toMatchObject({ status: 200, cache: "MISS" });
    expect(first.html).toContain("First version.");
    // The render recorded the note's tags (cachedRead): the page carries them for a CDN.
    expect(first.response.headers.get("cache-tag")?.split(",")).toEqual(
      expect.arrayContaining([documentTag(NOTE, "n1"), listTag(NOTE, "*"), "path:/notes/hello"]),
    );
    const asked = cmsRequests;
    const second = await get("/notes/hello");
    expect(second).toMatchObject({ status: 200, cache: "HIT" });
    expect(second.html).toContain("First version.");
    expect(cmsRequests).toBe(asked);
  });

  it("a wrong secret is 401 and changes nothing", async () => {
    await get("/notes/hello");
    const refused = await revalidate(
      { uid: NOTE, next: { tags: [documentTag(NOTE, "n1")] } },
      "wrong-secret-0123456789",
    );
    expect(refused.status).toBe(401);
    expect((await get("/notes/hello")).cache).toBe("HIT");
  });

  it("a revalidation with the note's document tag: the page and the list show the edited note", async () => {
    expect((await get("/notes")).html).toContain("Hello");
    expect((await get("/notes")).cache).toBe("HIT");
    published.set("n1", { ...published.get("n1")!, title: "Hello again", body: "Second version." });
    const answer = await revalidate({ uid: NOTE, next: { tags: [documentTag(NOTE, "n1")] } });
    expect(answer.status).toBe(200);
    // Stale-while-revalidate: the next visitor is served the old page once while it renders again.
    const stale = await get("/notes/hello");
    expect(stale).toMatchObject({ cache: "STALE" });
    expect(stale.html).toContain("First version.");
    const fresh = await until(
      "the edited note, fresh",
      () => get("/notes/hello"),
      (page) => page.cache === "HIT" && page.html.includes("Second version."),
    );
    expect(fresh.html).toContain("Hello again");
    // The list recorded each note's document tag too: it went stale with the same revalidation.
    await get("/notes");
    await until(
      "the list with the new title",
      () => get("/notes"),
      (page) => page.cache === "HIT" && page.html.includes("Hello again"),
    );
    // The other note's page read nothing of n1: still the first render.
    expect((await get("/notes/other")).cache).toBe("MISS");
    expect((await get("/notes/other")).cache).toBe("HIT");
  });

  it("an unpublish (expire: true) makes the page a 404 for the very next visitor", async () => {
    expect((await get("/notes/hello")).cache).toBe("HIT");
    published.delete("n1");
    const answer = await revalidate({ uid: NOTE, next: { tags: [documentTag(NOTE, "n1")], expire: true } });
    expect(answer.status).toBe(200);
    const gone = await get("/notes/hello");
    expect(gone.status).toBe(404);
    expect(gone.html).not.toContain("Second version.");
    expect((await get("/notes")).html).not.toContain("Hello again");
  });
});
