import { describe, expect, it } from "vitest";
import * as z from "zod";

import { fakeFetch, silentAnswer, type FakeRequest } from "../../../tests/support/fake-fetch.ts";
import { CmsError } from "./errors.server.ts";
import { createCmsHttp, type CmsHttpConfig } from "./http.server.ts";

type Answer = (request: FakeRequest) => Response | Promise<Response>;
const json = (status: number, body: unknown) => () => Response.json(body, { status });

function http(answer: Answer, config: Partial<CmsHttpConfig> = {}) {
  const { fetch, requests } = fakeFetch(answer);
  return { requests, cms: createCmsHttp({ baseUrl: "https://cms.example/base/", timeoutMs: 1_000, ...config, fetch }) };
}

async function failure(promise: Promise<unknown>): Promise<CmsError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof CmsError)) throw new Error(`expected a CmsError, got ${String(error)}`);
  return error;
}

describe("CMS HTTP helper: the request", () => {
  it("joins the base URL (its path kept, no double slash) with the path and a Strapi-style query", async () => {
    const { cms, requests } = http(json(200, {}));
    await cms.json({ path: "/api/pages", query: { filters: { fullPath: { $eq: "/a b" } }, locale: "de" } });
    expect(requests[0]?.url).toBe("https://cms.example/base/api/pages?filters[fullPath][$eq]=%2Fa%20b&locale=de");
    expect(cms.url("/_health")).toBe("https://cms.example/base/_health");
  });

  it("refuses a path that is not one from the CMS's root, or that carries its own query", () => {
    const { cms } = http(json(200, {}));
    for (const path of ["api/pages", "//evil.example/api", "/api/pages?locale=de", "/api#x"]) {
      expect(() => cms.url(path)).toThrow(/starts with one \//);
    }
  });

  it("carries the credential it is given as a Bearer token, and none without one", async () => {
    const { cms, requests } = http(json(200, {}));
    await cms.json({ path: "/api/pages", credential: { apiToken: "read-only" } });
    await cms.json({ path: "/api/users/me", credential: { userJWT: "user-jwt" } });
    await cms.json({ path: "/api/oauth-sync", credential: { secret: "shared", variable: "CMS_OAUTH_SYNC_SECRET" } });
    await cms.json({ path: "/api/auth/local" });
    expect(requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer read-only",
      "Bearer user-jwt",
      "Bearer shared",
      undefined,
    ]);
    expect(requests.every((request) => request.headers.accept === "application/json")).toBe(true);
  });

  it("a client given the site secret (CMS_ACCOUNT_API_SECRET) sends it as X-Site-Secret on every call; others never", async () => {
    const guarded = http(json(200, {}), { siteSecret: "site-secret-0123456789" });
    await guarded.cms.json({ path: "/api/auth/local", method: "POST", body: {} });
    await guarded.cms.send({ path: "/api/users/me", headers: {}, credential: { userJWT: "j" } });
    expect(guarded.requests.map((request) => request.headers["x-site-secret"])).toEqual([
      "site-secret-0123456789",
      "site-secret-0123456789",
    ]);
    const plain = http(json(200, {}));
    await plain.cms.json({ path: "/api/auth/local", method: "POST", body: {} });
    expect(plain.requests[0]?.headers).not.toHaveProperty("x-site-secret");
  });

  it("sends the caller's headers instead of the default accept, with the credential still added", async () => {
    const { cms, requests } = http(() => new Response("x"));
    await cms.send({ path: "/uploads/a.png", method: "HEAD", headers: { range: "bytes=0-3" } });
    await cms.send({ path: "/api/x", headers: {}, credential: { userJWT: "j" } });
    expect(requests.map((request) => [request.method, request.headers])).toEqual([
      ["HEAD", { range: "bytes=0-3" }],
      ["GET", { authorization: "Bearer j" }],
    ]);
  });

  it("sends a body as JSON with its method and content type", async () => {
    const { cms, requests } = http(json(200, {}));
    await cms.json({ path: "/api/auth/local", method: "POST", body: { identifier: "a@b.c", password: "x" } });
    await cms.json({ path: "/api/pages" });
    expect(requests[0]).toMatchObject({ method: "POST", body: { identifier: "a@b.c", password: "x" } });
    expect(requests[0]?.headers["content-type"]).toBe("application/json");
    expect(requests[1]).toMatchObject({ method: "GET", body: undefined });
    expect(requests[1]?.headers["content-type"]).toBeUndefined();
  });
});

describe("CMS HTTP helper: no answer", () => {
  it("a network error is 'unavailable' (503), saying the CMS could not be reached", async () => {
    const { cms } = http(() => Promise.reject(new TypeError("fetch failed")));
    const error = await failure(cms.json({ path: "/api/pages" }));
    expect(error).toMatchObject({ kind: "unavailable", status: 503, timedOut: false, cmsStatus: undefined });
    expect(error.message).toBe("The CMS could not be reached (/api/pages).");
  });

  it("gives up after the configured time, or the call's own", async () => {
    const { cms } = http(silentAnswer, { timeoutMs: 30 });
    const error = await failure(cms.json({ path: "/api/pages" }));
    expect(error).toMatchObject({ kind: "unavailable", status: 503, timedOut: true });
    expect(error.message).toBe("The CMS did not answer within 30 ms (/api/pages).");
    expect((await failure(cms.send({ path: "/_health", timeoutMs: 20 }))).message).toBe(
      "The CMS did not answer within 20 ms (/_health).",
    );
  });

  it("a body that stops arriving times out too, not 'not JSON'", async () => {
    const { cms } = http(
      ({ signal }) =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"data":'));
              signal?.addEventListener("abort", () => controller.error(signal.reason));
            },
          }),
        ),
      { timeoutMs: 30 },
    );
    expect(await failure(cms.json({ path: "/api/pages" }))).toMatchObject({ kind: "unavailable", timedOut: true });
  });

  it("covering the headers only, a body may take longer than the limit", async () => {
    const { cms, requests } = http(
      () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              await new Promise((resolve) => setTimeout(resolve, 60));
              controller.enqueue(new TextEncoder().encode("large file"));
              controller.close();
            },
          }),
        ),
      { timeoutMs: 20 },
    );
    const response = await cms.send({ path: "/uploads/a.png", timeoutCovers: "headers" });
    expect(await response.text()).toBe("large file");
    expect(requests[0]?.signal?.aborted).toBe(false);
    const silentCms = http(silentAnswer, { timeoutMs: 20 }).cms;
    expect(await failure(silentCms.send({ path: "/uploads/a.png", timeoutCovers: "headers" }))).toMatchObject({
      kind: "unavailable",
      timedOut: true,
    });
  });

  it("the caller's abort stops the call and comes back as it is, not as a CMS outage", async () => {
    const { cms, requests } = http(silentAnswer, { timeoutMs: 5_000 });
    const caller = new AbortController();
    const pending = cms.json({ path: "/api/pages", signal: caller.signal }).catch((error: unknown) => error);
    caller.abort(new Error("the visitor went away"));
    const error = await pending;
    expect(error).not.toBeInstanceOf(CmsError);
    expect(error).toMatchObject({ message: "the visitor went away" });
    expect(requests[0]?.signal?.aborted).toBe(true);
  });
});

describe("CMS HTTP helper: the answer", () => {
  it("parses JSON with the schema when given one, and returns it as it is otherwise", async () => {
    const { cms } = http(json(201, { data: { id: 7, extra: true } }));
    const schema = z.object({ data: z.object({ id: z.number() }) });
    expect(await cms.json({ path: "/api/things" }, schema)).toEqual({ data: { id: 7 } });
    expect(await cms.json({ path: "/api/things" })).toEqual({ data: { id: 7, extra: true } });
  });

  it("not JSON, or the wrong shape, is a 'bad-response' (502)", async () => {
    const html = http(() => new Response("<html>proxy error</html>", { status: 200 }));
    const notJson = await failure(html.cms.json({ path: "/api/pages" }));
    expect(notJson).toMatchObject({ kind: "bad-response", status: 502 });
    expect(notJson.message).toBe("The CMS answered /api/pages with something that is not JSON.");

    const wrong = http(json(200, { data: [{ title: 42 }] }));
    const shape = await failure(wrong.cms.json({ path: "/api/pages" }, z.object({ data: z.array(z.string()) })));
    expect(shape).toMatchObject({ kind: "bad-response", status: 502 });
    expect(shape.message).toBe("The CMS answered /api/pages in an unexpected shape.");
  });

  it.each([
    [400, "failed", 502],
    [401, "unauthorized", 502],
    [403, "unauthorized", 502],
    [404, "not-found", 404],
    [409, "failed", 502],
    [429, "unavailable", 503],
    [500, "failed", 502],
    [503, "unavailable", 503],
  ])("a CMS %i is %s (%i), with Strapi's error body kept", async (cmsStatus, kind, status) => {
    const details = { reason: "some_reason" };
    const { cms } = http(
      json(cmsStatus, { data: null, error: { status: cmsStatus, name: "SomeError", message: "Said so", details } }),
    );
    expect(await failure(cms.json({ path: "/api/x" }))).toMatchObject({
      kind,
      status,
      cmsStatus,
      strapiError: { name: "SomeError", message: "Said so", details },
    });
  });

  it("keeps Strapi's message when the body leaves out its name or details", async () => {
    const { cms } = http(
      json(400, { data: null, error: { status: 400, message: "Email or Username are already taken" } }),
    );
    expect(await failure(cms.json({ path: "/api/x" }))).toMatchObject({
      strapiError: { name: "Error", message: "Email or Username are already taken", details: undefined },
    });
  });

  it("an error answer that is not Strapi's shape still maps by status, with no Strapi error", async () => {
    const { cms } = http(() => new Response("<html>Bad gateway</html>", { status: 502 }));
    expect(await failure(cms.json({ path: "/api/x" }))).toMatchObject({
      kind: "failed",
      cmsStatus: 502,
      strapiError: undefined,
    });
  });

  it("a refusal names what to check for the credential the call carried", async () => {
    const { cms } = http(json(401, { error: { status: 401, name: "UnauthorizedError", message: "Missing" } }));
    const message = async (credential?: Parameters<typeof cms.json>[0]["credential"]) =>
      (await failure(cms.json({ path: "/api/x", credential }))).message;
    expect(await message({ apiToken: "t" })).toMatch(/API token .*CMS_REST_READONLY_API_KEY/);
    expect(await message({ userJWT: "j" })).toBe("The CMS refused the user's session (401 on /api/x).");
    expect(await message({ secret: "s", variable: "CMS_OAUTH_SYNC_SECRET" })).toBe(
      "The CMS refused the call made with CMS_OAUTH_SYNC_SECRET (401 on /api/x).",
    );
    expect(await message()).toBe("The CMS refused the call (401 on /api/x).");
  });

  it("send hands back any answer unread, so a caller can stream it", async () => {
    const { cms } = http(json(404, { error: { message: "Not Found" } }));
    const response = await cms.send({ path: "/api/users/me", credential: { userJWT: "j" } });
    expect(response.status).toBe(404);
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ error: { message: "Not Found" } });
  });
});
