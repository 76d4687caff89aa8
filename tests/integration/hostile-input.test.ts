import { request as httpRequest } from "node:http";

import fc from "fast-check";
import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";
import { until } from "../support/wait.ts";

// Property-based: thousands of malformed requests to the endpoints the outside world can
// reach. Whatever comes in: never a 5xx, never a secret in an answer or in the log, and the
// site is still up afterwards.
const REVALIDATE_SECRET = "revalidate-secret-0123456789";
const PURGE_SECRET = "cdn-purge-secret-0123456789";
const cms = new StandInCms(await getPort());
let app: AppHandle;

beforeAll(async () => {
  await cms.start();
  cms.setPage({ fullPath: "/", title: "Home" });
  cms.setPage({ fullPath: "/company", title: "Company" });
  cms.users.set("ann@example.com", { id: 1, password: "Right-password-1", blocked: false });
  app = await startApp({
    port: await getPort(),
    env: {
      CMS_URL: cms.url,
      CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789",
      CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
      CMS_CDN_PURGE_SECRET: PURGE_SECRET,
      AUTH_RATE_LIMIT_MAX: "1000000",
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await cms.stop();
});

const body = fc.oneof(
  fc.json(),
  fc.string(),
  fc.jsonValue().map((value) => JSON.stringify({ uid: "api::page.page", next: value })),
  fc
    .record({
      uid: fc.oneof(fc.string(), fc.constant("api::page.page")),
      next: fc.record({ fullPaths: fc.array(fc.string()), tags: fc.array(fc.string()) }, { requiredKeys: [] }),
    })
    .map((value) => JSON.stringify(value)),
  fc
    .record(
      { paths: fc.array(fc.string()), tags: fc.array(fc.string()), everything: fc.anything() },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
);

function authorizationFor(secret: string) {
  return fc.oneof(
    fc.constant(`Bearer ${secret}`),
    fc.constant(`Bearer ${secret.slice(0, -1)}`),
    fc.constant(`bearer ${secret}`),
    fc.string().map((value) => `Bearer ${value}`),
    fc.string(),
    fc.constant(undefined),
  );
}

async function send(path: string, payload: string, authorization: string | undefined, contentType: string) {
  const headers: Record<string, string> = { "content-type": contentType };
  if (authorization !== undefined) headers.authorization = authorization.replace(/[\r\n]/g, "");
  try {
    const response = await fetch(`${app.url}${path}`, { method: "POST", headers, body: payload });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    // Headers fetch itself refuses to send (invalid characters) never reach the site.
    if (error instanceof TypeError && /header/i.test(String(error.message) + String(error.cause ?? ""))) return null;
    throw error;
  }
}

describe("hostile input", () => {
  for (const [path, secret, ok] of [
    ["/api/cms-revalidate", REVALIDATE_SECRET, [200, 400, 401, 413]],
    ["/api/cdn-purge", PURGE_SECRET, [400, 401, 413, 501]],
  ] as const) {
    it(`${path}: 2,000 malformed requests, never a 5xx or a secret`, async () => {
      await fc.assert(
        fc.asyncProperty(
          body,
          authorizationFor(secret),
          fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded"),
          async (payload, authorization, type) => {
            const result = await send(path, payload, authorization, type);
            if (!result) return;
            expect(ok as readonly number[]).toContain(result.status);
            expect(result.text).not.toContain(secret);
          },
        ),
        { numRuns: 2_000 },
      );
      expect(app.output()).not.toContain(REVALIDATE_SECRET);
      expect(app.output()).not.toContain(PURGE_SECRET);
    }, 120_000);
  }

  it("auth endpoints: wrong types, oversized fields, unicode and injection strings get 4xx, never 5xx", async () => {
    const nasty = fc.oneof(
      fc.string({ maxLength: 50 }),
      fc.string({ unit: "grapheme", maxLength: 50 }),
      fc.constantFrom(
        "' OR 1=1 --",
        "<script>alert(1)</script>",
        "ann@example.com\u0000",
        "ＡＮＮ@example.com",
        "a".repeat(20_000),
        "../../etc/passwd",
      ),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          "/api/auth/sign-in-cms",
          "/api/auth/register-cms",
          "/api/auth/forgot-password-cms",
          "/api/auth/reset-password-cms",
        ),
        fc.record({ email: nasty, password: nasty, passwordConfirmation: nasty, code: nasty }, { requiredKeys: [] }),
        async (path, fields) => {
          const response = await fetch(`${app.url}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: app.url },
            body: JSON.stringify(fields),
          });
          const text = await response.text();
          expect(response.status, text).toBeLessThan(500);
          expect(text).not.toContain("<script>");
        },
      ),
      { numRuns: 500 },
    );
  }, 120_000);

  it("no Host header, however odd, changes what a page renders or what the cache keeps", async () => {
    const { port } = new URL(app.url);
    const get = (path: string, host: string) =>
      new Promise<{ status: number; text: string } | null>((resolve, reject) => {
        let req;
        try {
          req = httpRequest(
            { host: "127.0.0.1", port, path, headers: { host, "x-forwarded-host": host }, setHost: false },
            (res) => {
              let text = "";
              res.on("data", (chunk: Buffer) => (text += chunk.toString()));
              res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
            },
          );
        } catch {
          return resolve(null); // a header Node itself refuses to send
        }
        req.on("error", reject);
        req.end();
      });
    const host = fc.string({
      unit: fc.constantFrom("a", "?", "#", "\\", "/", "@", ":", ".", "%", "[", "]", "1", " "),
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(host, fc.constantFrom("/company", "/company.data"), async (value, path) => {
        const result = await get(path, value);
        if (!result) return;
        expect(result.status, value).toBeLessThan(500);
        if (result.status === 200) expect(result.text, value).toContain("Company");
      }),
      { numRuns: 300 },
    );
    // What everybody gets afterwards is still the company page.
    expect(await (await fetch(`${app.url}/company`)).text()).toContain("<h1>Company</h1>");
  }, 60_000);

  it("methods other than GET, HEAD and POST: 405 with Allow on every path, no 5xx, nothing logged as an error", async () => {
    const from = app.output().length;
    const { port } = new URL(app.url);
    const send = (method: string, path: string) =>
      new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, method, path }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
        });
        req.on("error", reject);
        req.end();
      });
    // TRACE cannot even become a Fetch Request; the others reached React Router, which logged a stack.
    const methods = ["TRACE", "PROPFIND", "OPTIONS", "DELETE", "PUT", "PATCH", "MKCOL", "SEARCH", "PURGE", "LOCK"];
    const paths = ["/", "/company", "/company.data", "/Company", "/sign-in", "/api/auth/get-session"];
    paths.push("/api/cms-revalidate", "/healthz", "/assets/none.js", "/uploads/a.png", "*");
    for (const method of methods) {
      for (const path of paths) {
        const response = await send(method, path);
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.allow, `${method} ${path}`).toBe("GET, HEAD, POST");
      }
    }
    // An allowed method a route does not take: React Router's own 405, an answer, not an error.
    for (const path of ["/company", "/company.data"]) {
      expect((await send("POST", path)).status, path).toBe(405);
    }
    await until(
      "the router's 405 lines",
      () => app.output().slice(from),
      (log) => (log.match(/\[router\] 405 Method Not Allowed/g) ?? []).length >= 2,
    );
    const log = app.output().slice(from);
    expect(log).not.toMatch(/"level":"(error|fatal)"/);
    expect(log).not.toMatch(/\n\s+at /);
    expect(log).not.toMatch(/TypeError/);
  }, 60_000);

  it("the page route: traversal, encoded and odd paths give 404, 308 or a page, never a 5xx", async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        "..",
        "%2e%2e",
        "%2E%2E%2F",
        "%2f",
        "%5c",
        "%00",
        "%",
        "%ff",
        "company",
        "en",
        "de",
        "..%2f..%2fetc",
        "%252e",
      ),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 5 }), async (segments) => {
        const response = await fetch(`${app.url}/${segments.join("/")}`, { redirect: "manual" });
        expect(response.status, segments.join("/")).toBeLessThan(500);
        const text = await response.text();
        expect(text).not.toContain("stand-in-token");
      }),
      { numRuns: 500 },
    );
    expect((await fetch(`${app.url}/company`)).status).toBe(200);
  }, 120_000);
});
