import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";

import { CMS_REVALIDATE, createCmsClient, type CmsCallRecord } from "./client.server.ts";
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
      query: { filters: { fullPath: { $eq: "/company/careers" } }, locale: "de" },
    });
    expect(lastRequest.authorization).toBe(`Bearer ${TOKEN}`);
    expect(decodeURIComponent(lastRequest.url)).toBe("/api/pages?filters[fullPath][$eq]=/company/careers&locale=de");
  });

  it("records each call's interval and tags, with the contract's default intervals", async () => {
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
    await cms.get("/api/anything", anything);
    const page = await findPage(cms, "/careers", "en");
    answer = json(200, { data: { links: [{ label: "Home", url: "/" }], note: null } });
    await findNavbar(cms, "en");
    await findFooter(cms, "en");

    expect(page?.title).toBe("Careers");
    expect(calls).toEqual([
      { path: "/api/anything", revalidate: CMS_REVALIDATE.base, tags: [], perUser: false },
      { path: "/api/pages", revalidate: 120, tags: [], perUser: false },
      { path: "/api/navbar", revalidate: 600, tags: ["cms:api::navbar.navbar"], perUser: false },
      { path: "/api/footer", revalidate: 600, tags: ["cms:api::footer.footer"], perUser: false },
    ]);
    expect(CMS_REVALIDATE.base).toBe(60);
  });

  it("makes a per-user call with userJWT, and omitUserAuthorization wins over it", async () => {
    await client().get("/api/users/me", anything, { userJWT: "user-jwt" });
    expect(lastRequest.authorization).toBe("Bearer user-jwt");
    expect(calls[0]?.perUser).toBe(true);

    await client().get("/api/pages", anything, { userJWT: "user-jwt", omitUserAuthorization: true });
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
    await cms.get("/api/users/me", anything);
    expect(lastRequest.authorization).toBe("Bearer session-jwt");
    expect(calls[0]?.perUser).toBe(true);

    await cms.get("/api/pages", anything, { omitUserAuthorization: true });
    expect(lastRequest.authorization).toBe(`Bearer ${TOKEN}`);
    expect(lookups).toBe(1);
  });

  it("without a session, a call without options uses the read-only token", async () => {
    const cms = createCmsClient({ baseUrl, apiToken: TOKEN, timeoutMs: 2_000, sessionJWT: async () => undefined });
    await cms.get("/api/pages", anything);
    expect(lastRequest.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("refuses useProxy on the server, where it would mean nothing", async () => {
    await expect(client().get("/api/pages", anything, { useProxy: true })).rejects.toThrow(/browser-side/);
  });

  it("reports a CMS that is down as 503", async () => {
    const down = createCmsClient({ baseUrl: "http://127.0.0.1:9", apiToken: TOKEN, timeoutMs: 2_000 });
    const error = await failure(down.get("/api/pages", anything));
    expect(error).toMatchObject({ kind: "unavailable", status: 503 });
    expect(error.message).toBe("The CMS could not be reached (/api/pages).");
  });

  it("gives up on a CMS that does not answer in time, as 503", async () => {
    answer = () => {
      /* never answers */
    };
    const error = await failure(client(150).get("/api/pages", anything));
    expect(error).toMatchObject({ kind: "unavailable", status: 503 });
    expect(error.message).toBe("The CMS did not answer within 150 ms (/api/pages).");
  });

  // Every status's mapping is the HTTP helper's (http.server.test.ts); here, that the client keeps it.
  it("passes on the HTTP helper's mapping of a CMS error status (503: unavailable)", async () => {
    answer = json(503, { data: null, error: { status: 503, message: "nope" } });
    expect(await failure(client().get("/api/pages", anything))).toMatchObject({
      kind: "unavailable",
      status: 503,
      cmsStatus: 503,
    });
  });

  it("says which variable to check when the CMS refuses the API token", async () => {
    answer = json(401, { data: null, error: { status: 401, message: "Missing or invalid credentials" } });
    const error = await failure(client().get("/api/pages", anything));
    expect(error).toMatchObject({ kind: "unauthorized", status: 502 });
    expect(error.message).toMatch(/CMS_REST_READONLY_API_KEY/);
  });

  it("reports garbage as 502: not JSON, or JSON of the wrong shape", async () => {
    answer = (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>proxy error</html>");
    expect(await failure(client().get("/api/pages", anything))).toMatchObject({ kind: "bad-response", status: 502 });

    answer = json(200, { data: [{ title: 42 }] });
    const error = await failure(findPage(client(), "/x", "en"));
    expect(error).toMatchObject({ kind: "bad-response", status: 502 });
    expect(error.message).toBe("The CMS answered /api/pages in an unexpected shape.");
  });

  it("treats a navbar nobody has created yet as no navbar", async () => {
    answer = json(404, { data: null, error: { status: 404, name: "NotFoundError", message: "Not Found" } });
    expect(await findNavbar(client(), "de")).toBeNull();
  });
});
