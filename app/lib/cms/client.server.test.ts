import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { fieldTag, isDocumentTag, listTag } from "@cms-site/cache-tags";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";

import {
  CMS_REVALIDATE,
  createCmsClient,
  recordedTags,
  type CmsCallRecord,
  type RecordedCall,
} from "./client.server.ts";
import { findFooter, findNavbar, findPage } from "./content.server.ts";
import { CmsError } from "./errors.server.ts";

// A stand-in CMS on loopback: each test says how it answers.
let answer: (req: IncomingMessage, res: ServerResponse) => void;
let lastRequest: { url: string; authorization: string | undefined };
let server: Server;
let baseUrl: string;
const TOKEN = "read-only-token-0123456789";

beforeAll(async () => {
  server = createServer((req, res) => {
    lastRequest = { url: req.url ?? "", authorization: req.headers.authorization };
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function json(status: number, body: unknown) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
}

let calls: CmsCallRecord[];
const client = (timeoutMs = 2_000) =>
  createCmsClient({ baseUrl, apiToken: TOKEN, timeoutMs, onCall: (call) => calls.push(call) });
const anything = z.object({ data: z.unknown() });
// Every call names its content type; these tests' calls are of the page type.
const PAGE = { type: "api::page.page" } as const;

async function failure(promise: Promise<unknown>): Promise<CmsError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof CmsError)) throw new Error(`expected a CmsError, got ${String(error)}`);
  return error;
}

beforeEach(() => {
  calls = [];
  answer = json(200, { data: [] });
});

describe("CMS client", () => {
  it("sends the read-only token and Strapi-style query parameters", async () => {
    await client().get("/api/pages", anything, {
      ...PAGE,
      query: { filters: { fullPath: { $eq: "/company/careers" } }, locale: "de" },
    });
    expect(lastRequest.authorization).toBe(`Bearer ${TOKEN}`);
    expect(decodeURIComponent(lastRequest.url)).toBe("/api/pages?filters[fullPath][$eq]=/company/careers&locale=de");
  });

  it("records each call's interval and what it read, with the contract's default intervals", async () => {
    answer = json(200, {
      data: [
        {
          documentId: "abc",
          locale: "en",
          title: "Careers",
          fullPath: "/careers",
          body: [{ type: "paragraph", children: [{ type: "text", text: "Hi" }] }],
          seo: { metaTitle: "Careers | Acme", metaDescription: "Work with us." },
        },
      ],
    });
    const cms = client();
    await cms.get("/api/anything", anything, { type: "api::anything.anything" });
    const page = await findPage(cms, "/careers", "en");
    answer = json(200, { data: { documentId: "nav1", links: [{ label: "Home", url: "/" }], note: null } });
    await findNavbar(cms, "en");
    await findFooter(cms, "en");

    expect(page?.title).toBe("Careers");
    expect(calls).toEqual([
      {
        path: "/api/anything",
        revalidate: CMS_REVALIDATE.base,
        tags: ["cms:api::anything.anything", "cms:api::anything.anything:abc", "cms:api::anything.anything:list:*"],
        perUser: false,
      },
      // Looked up at its site path: the page's document, no list.
      { path: "/api/pages", revalidate: 120, tags: ["cms:api::page.page", "cms:api::page.page:abc"], perUser: false },
      {
        path: "/api/navbar",
        revalidate: 600,
        tags: ["cms:api::navbar.navbar", "cms:api::navbar.navbar:nav1"],
        perUser: false,
      },
      {
        path: "/api/footer",
        revalidate: 600,
        tags: ["cms:api::footer.footer", "cms:api::footer.footer:nav1"],
        perUser: false,
      },
    ]);
    expect(CMS_REVALIDATE.base).toBe(60);
  });

  it("makes a per-user call with userJWT, and omitUserAuthorization wins over it", async () => {
    await client().get("/api/users/me", anything, { type: "plugin::users-permissions.user", userJWT: "user-jwt" });
    expect(lastRequest.authorization).toBe("Bearer user-jwt");
    expect(calls[0]?.perUser).toBe(true);

    await client().get("/api/pages", anything, { ...PAGE, userJWT: "user-jwt", omitUserAuthorization: true });
    expect(lastRequest.authorization).toBe(`Bearer ${TOKEN}`);
    expect(calls[1]?.perUser).toBe(false);
  });

  it("without options, a call acts for the signed-in visitor: the session's JWT, looked up for it", async () => {
    let lookups = 0;
    const cms = createCmsClient({
      baseUrl,
      apiToken: TOKEN,
      timeoutMs: 2_000,
      sessionJWT: async () => {
        lookups++;
        return "session-jwt";
      },
      onCall: (call) => calls.push(call),
    });
    await cms.get("/api/users/me", anything, { type: "plugin::users-permissions.user" });
    expect(lastRequest.authorization).toBe("Bearer session-jwt");
    expect(calls[0]?.perUser).toBe(true);

    await cms.get("/api/pages", anything, { ...PAGE, omitUserAuthorization: true });
    expect(lastRequest.authorization).toBe(`Bearer ${TOKEN}`);
    expect(lookups).toBe(1);
  });

  it("without a session, a call without options uses the read-only token", async () => {
    const cms = createCmsClient({ baseUrl, apiToken: TOKEN, timeoutMs: 2_000, sessionJWT: async () => undefined });
    await cms.get("/api/pages", anything, PAGE);
    expect(lastRequest.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("refuses useProxy on the server, where it would mean nothing", async () => {
    await expect(client().get("/api/pages", anything, { ...PAGE, useProxy: true })).rejects.toThrow(/browser-side/);
  });

  it("reports a CMS that is down as 503", async () => {
    const down = createCmsClient({ baseUrl: "http://127.0.0.1:9", apiToken: TOKEN, timeoutMs: 2_000 });
    const error = await failure(down.get("/api/pages", anything, PAGE));
    expect(error).toMatchObject({ kind: "unavailable", status: 503 });
    expect(error.message).toBe("The CMS could not be reached (/api/pages).");
  });

  it("gives up on a CMS that does not answer in time, as 503", async () => {
    answer = () => {
      /* never answers */
    };
    const error = await failure(client(150).get("/api/pages", anything, PAGE));
    expect(error).toMatchObject({ kind: "unavailable", status: 503 });
    expect(error.message).toBe("The CMS did not answer within 150 ms (/api/pages).");
  });

  // Every status's mapping is the HTTP helper's (http.server.test.ts); here, that the client keeps it.
  it("passes on the HTTP helper's mapping of a CMS error status (503: unavailable)", async () => {
    answer = json(503, { data: null, error: { status: 503, message: "nope" } });
    expect(await failure(client().get("/api/pages", anything, PAGE))).toMatchObject({
      kind: "unavailable",
      status: 503,
      cmsStatus: 503,
    });
  });

  it("says which variable to check when the CMS refuses the API token", async () => {
    answer = json(401, { data: null, error: { status: 401, message: "Missing or invalid credentials" } });
    const error = await failure(client().get("/api/pages", anything, PAGE));
    expect(error).toMatchObject({ kind: "unauthorized", status: 502 });
    expect(error.message).toMatch(/CMS_REST_READONLY_API_KEY/);
  });

  it("reports garbage as 502: not JSON, or JSON of the wrong shape", async () => {
    answer = (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>proxy error</html>");
    expect(await failure(client().get("/api/pages", anything, PAGE))).toMatchObject({
      kind: "bad-response",
      status: 502,
    });

    answer = json(200, { data: [{ title: 42 }] });
    const error = await failure(findPage(client(), "/x", "en"));
    expect(error).toMatchObject({ kind: "bad-response", status: 502 });
    expect(error.message).toBe("The CMS answered /api/pages in an unexpected shape.");
  });

  it("treats a navbar nobody has created yet as no navbar, and records the type's tag (its first publish reaches the render)", async () => {
    answer = json(404, { data: null, error: { status: 404, name: "NotFoundError", message: "Not Found" } });
    expect(await findNavbar(client(), "de")).toBeNull();
    expect(calls).toEqual([{ path: "/api/navbar", revalidate: 600, tags: ["cms:api::navbar.navbar"], perUser: false }]);
  });

  it("completes the call's record once the answer is in (the record is handed over before the request)", async () => {
    const received = new Promise<() => void>((resolve) => {
      answer = (req, res) => resolve(() => json(200, { data: [{ documentId: "d1" }] })(req, res));
    });
    const pending = client().get("/api/articles", anything, { type: ARTICLE, query: { locale: "en" } });
    const release = await received;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.tags).toEqual([`cms:${ARTICLE}`]);
    release();
    await pending;
    expect(calls[0]!.tags).toEqual([`cms:${ARTICLE}`, `cms:${ARTICLE}:d1`, `cms:${ARTICLE}:list:en`]);
  });
});

const ARTICLE = "api::article.article";

describe("what a call records (the contract's rules S1–S5)", () => {
  const call = (options: Partial<RecordedCall> = {}): RecordedCall => ({ type: ARTICLE, ...options });
  const list = (...ids: string[]) => ({ data: ids.map((documentId) => ({ documentId, title: documentId })) });

  it("S1: the type's tag, always, even for an answer with nothing in it", () => {
    expect(recordedTags(call({ pagePath: "/blog/x" }), { data: [] })).toEqual([`cms:${ARTICLE}`]);
    expect(recordedTags(call({ pagePath: "/blog/x" }), null)).toEqual([`cms:${ARTICLE}`]);
    expect(recordedTags({ type: "api::navbar.navbar" }, { data: null })).toEqual(["cms:api::navbar.navbar"]);
  });

  it("S2: every document at the top level of data (a list or one object), never a populated relation's", () => {
    const answer = {
      data: [
        { documentId: "a1", category: { documentId: "c1" }, author: { documentId: "p1" } },
        { documentId: "a2", category: null },
        { title: "no documentId" },
      ],
    };
    expect(recordedTags(call({ pagePath: "/blog/a1" }), answer)).toEqual([
      `cms:${ARTICLE}`,
      `cms:${ARTICLE}:a1`,
      `cms:${ARTICLE}:a2`,
    ]);
    expect(recordedTags({ type: "api::footer.footer" }, { data: { documentId: "f1", links: [] } })).toEqual([
      "cms:api::footer.footer",
      "cms:api::footer.footer:f1",
    ]);
  });

  it("S3: filters of exactly { documentId: { $eq } } record that document, even when the answer is empty, and no list", () => {
    const byDocument = call({ query: { filters: { documentId: { $eq: "a9" } }, locale: "*" } });
    expect(recordedTags(byDocument, { data: [] })).toEqual([`cms:${ARTICLE}`, `cms:${ARTICLE}:a9`]);
    expect(recordedTags(byDocument, list("a9"))).toEqual([`cms:${ARTICLE}`, `cms:${ARTICLE}:a9`]);
  });

  it("S4: a list records the list of its locale; every locale (`*`) for locale=* or none", () => {
    expect(recordedTags(call({ query: { locale: "de" } }), list("a1"))).toEqual([
      `cms:${ARTICLE}`,
      `cms:${ARTICLE}:a1`,
      `cms:${ARTICLE}:list:de`,
    ]);
    expect(recordedTags(call({ query: { locale: "*" } }), list())).toEqual([`cms:${ARTICLE}`, `cms:${ARTICLE}:list:*`]);
    expect(recordedTags(call(), list())).toEqual([`cms:${ARTICLE}`, `cms:${ARTICLE}:list:*`]);
    expect(recordedTags(call({ query: { locale: "" } }), list())).toContain(`cms:${ARTICLE}:list:*`);
  });

  it("S4: a list filtered by exactly one relation's documentId records that filtered list", () => {
    const filtered = call({ query: { locale: "en", filters: { category: { documentId: { $eq: "c1" } } } } });
    expect(recordedTags(filtered, list("a1"))).toEqual([
      `cms:${ARTICLE}`,
      `cms:${ARTICLE}:a1`,
      `cms:${ARTICLE}:list:en:category=c1`,
    ]);
    expect(listTag(ARTICLE, "en", { attribute: "category", documentId: "c1" })).toBe(
      `cms:${ARTICLE}:list:en:category=c1`,
    );
  });

  it("S4: any other filter shape records the whole list of the locale and a field tag per attribute it names (C7)", () => {
    const field = (attribute: string) => `cms:${ARTICLE}:field:en:${attribute}`;
    const shapes: Array<[unknown, string[]]> = [
      [{ slug: { $eq: "news" } }, ["slug"]],
      [{ category: { slug: { $eq: "news" } } }, ["category"]],
      [{ publishDate: { $lt: "2026-01-01" } }, ["publishDate"]],
      [
        { $or: [{ category: { documentId: { $eq: "c1" } } }, { category: { documentId: { $eq: "c2" } } }] },
        ["category"],
      ],
      [{ category: { documentId: { $eq: "c1" } }, author: { documentId: { $eq: "p1" } } }, ["author", "category"]],
      [{ category: { documentId: { $eq: "c1", $ne: "c2" } } }, ["category"]],
      [{ category: { documentId: { $in: ["c1"] } } }, ["category"]],
      [{ category: { documentId: { $eq: 7 } } }, ["category"]],
      [{ category: { documentId: { $eq: "c1" }, slug: { $eq: "x" } } }, ["category"]],
      // the document's identity and locale never change by an edit: the list tag covers them
      [{ documentId: { $ne: "a1" } }, []],
      [{ documentId: { $eq: "a1" }, locale: { $eq: "en" } }, []],
      // nested logical operators, at any depth; $not holds an object
      [
        {
          $and: [
            { featured: { $eq: true } },
            { $or: [{ $not: { employmentType: { $eq: "part-time" } } }, { title: { $null: true } }] },
          ],
        },
        ["employmentType", "featured", "title"],
      ],
    ];
    for (const [filters, attributes] of shapes) {
      expect(recordedTags(call({ query: { locale: "en", filters } }), list()), JSON.stringify(filters)).toEqual([
        `cms:${ARTICLE}`,
        `cms:${ARTICLE}:list:en`,
        ...attributes.map(field),
      ]);
    }
    expect(fieldTag(ARTICLE, "*", "employmentType")).toBe(`cms:${ARTICLE}:field:*:employmentType`);
    // locale=* (or none): every locale's field tag, as the list's
    expect(recordedTags(call({ query: { filters: { featured: { $eq: true } } } }), list())).toEqual([
      `cms:${ARTICLE}`,
      `cms:${ARTICLE}:list:*`,
      `cms:${ARTICLE}:field:*:featured`,
    ]);
  });

  it("S4: a field tag per attribute a list sorts by, in every form of Strapi's sort (C7: an edit reorders it)", () => {
    const field = (attribute: string) => `cms:${ARTICLE}:field:de:${attribute}`;
    const sorts: Array<[unknown, string[]]> = [
      ["title:asc", ["title"]],
      ["title:asc, slug:desc", ["slug", "title"]],
      [
        ["publishDate:desc", "slug:asc"],
        ["publishDate", "slug"],
      ],
      [{ title: "asc" }, ["title"]],
      [
        [{ title: "asc" }, { category: { name: "desc" } }],
        ["category", "title"],
      ],
      ["category.name:asc", ["category"]],
      ["title", ["title"]],
      [["documentId:asc", "locale:asc"], []],
      // a key that is no attribute name is never put into a tag
      [["ti tle:asc", "a:b:c"], ["a"]],
    ];
    for (const [sort, attributes] of sorts) {
      expect(recordedTags(call({ query: { locale: "de", sort } }), list("a1")), JSON.stringify(sort)).toEqual([
        `cms:${ARTICLE}`,
        `cms:${ARTICLE}:a1`,
        `cms:${ARTICLE}:list:de`,
        ...attributes.map(field),
      ]);
    }
    // a list filtered by one relation: its filtered list tag covers the filter; the sort still counts
    const byCategory = call({
      query: { locale: "en", filters: { category: { documentId: { $eq: "c1" } } }, sort: ["publishDate:desc"] },
    });
    expect(recordedTags(byCategory, list())).toEqual([
      `cms:${ARTICLE}`,
      `cms:${ARTICLE}:list:en:category=c1`,
      `cms:${ARTICLE}:field:en:publishDate`,
    ]);
  });

  it("S4 not: a lookup at a site path (path revalidation covers it), nor an answer that is not a list", () => {
    expect(
      recordedTags(call({ query: { locale: "en", filters: { slug: { $eq: "x" } } }, pagePath: "/blog/x" }), list("a1")),
    ).toEqual([`cms:${ARTICLE}`, `cms:${ARTICLE}:a1`]);
    expect(recordedTags(call({ query: { locale: "en" } }), { data: { documentId: "s1" } })).toEqual([
      `cms:${ARTICLE}`,
      `cms:${ARTICLE}:s1`,
    ]);
  });

  it("tells a document's tag from a type's, a list's and a field's", () => {
    expect(isDocumentTag(`cms:${ARTICLE}:a1`)).toBe(true);
    expect(isDocumentTag(`cms:${ARTICLE}`)).toBe(false);
    expect(isDocumentTag(`cms:${ARTICLE}:list:en`)).toBe(false);
    expect(isDocumentTag(`cms:${ARTICLE}:list:*:category=c1`)).toBe(false);
    expect(isDocumentTag(fieldTag(ARTICLE, "en", "employmentType"))).toBe(false);
    expect(isDocumentTag("path:/blog/a1")).toBe(false);
  });

  it("S5: dependsOn neighboursOf records the type, the documents found and the neighbours tag, no list", () => {
    const neighbours = call({ dependsOn: { neighboursOf: "a1" }, query: { locale: "en", filters: { $or: [] } } });
    expect(recordedTags(neighbours, list("a0"))).toEqual([
      `cms:${ARTICLE}`,
      `cms:${ARTICLE}:a0`,
      `cms:${ARTICLE}:neighbours:en:a1`,
    ]);
    // at an end of the list: nothing found, the neighbours tag still brings the next one to come
    expect(recordedTags(neighbours, list())).toEqual([`cms:${ARTICLE}`, `cms:${ARTICLE}:neighbours:en:a1`]);
    expect(recordedTags(call({ dependsOn: { neighboursOf: "a1" } }), list())).toEqual([
      `cms:${ARTICLE}`,
      `cms:${ARTICLE}:neighbours:*:a1`,
    ]);
  });
});
