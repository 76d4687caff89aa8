import { request as httpRequest } from "node:http";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";

// POST /api/cms-revalidate over HTTP, against the production build, status by status.
const SECRET = "revalidate-secret-0123456789";
const cms = new StandInCms(await getPort());
let app: AppHandle;
let unconfigured: AppHandle;

beforeAll(async () => {
  await cms.start();
  const env = { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789" };
  [app, unconfigured] = await Promise.all([
    startApp({ port: await getPort(), env: { ...env, CMS_REVALIDATE_SECRET: SECRET } }),
    startApp({ port: await getPort(), env }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([app?.stop(), unconfigured?.stop()]);
  await cms.stop();
});

function post(body: string, headers: Record<string, string> = { authorization: `Bearer ${SECRET}` }, base = app.url) {
  return fetch(`${base}/api/cms-revalidate`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

describe("POST /api/cms-revalidate", () => {
  it("answers 503 when no secret is configured", async () => {
    const response = await post("{}", { authorization: `Bearer ${SECRET}` }, unconfigured.url);
    expect(response.status).toBe(503);
    expect((await response.json()).error).toMatch(/set CMS_REVALIDATE_SECRET/);
  });

  it.each([
    ["no Authorization header", {}],
    ["a wrong secret", { authorization: "Bearer wrong-secret-0123456789" }],
    ["the secret without Bearer", { authorization: SECRET }],
    ["a prefix of the secret", { authorization: `Bearer ${SECRET.slice(0, -1)}` }],
  ])("answers 401 to %s", async (_name, headers) => {
    const response = await post(JSON.stringify({ uid: "api::page.page", next: { fullPaths: ["/"] } }), headers);
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body.error).toMatch(/Authorization: Bearer/);
    expect(JSON.stringify(body)).not.toContain(SECRET);
  });

  it("answers a wrong secret with a 10 MB body 401 without reading the body", async () => {
    const total = 10 * 1024 * 1024;
    const { status, sent } = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      const req = httpRequest(`${app.url}/api/cms-revalidate`, {
        method: "POST",
        headers: { authorization: "Bearer wrong", "content-type": "application/json", "content-length": total },
      });
      req.on("response", (response) => {
        resolve({ status: response.statusCode ?? 0, sent });
        response.resume();
        req.destroy();
      });
      req.on("error", (error) => (sent < total ? undefined : reject(error)));
      // Send only the first 64 KiB, then wait: the answer must come without the rest.
      const chunk = Buffer.alloc(64 * 1024, "x");
      req.write(chunk, () => (sent += chunk.length));
    });
    expect(status).toBe(401);
    expect(sent).toBeLessThan(total);
  });

  it("answers 413 to a body over the limit", async () => {
    const response = await post(JSON.stringify({ uid: "api::page.page", next: { tags: ["x".repeat(70_000)] } }));
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatch(/too large/);
  });

  it("answers 400 to a body that is not JSON", async () => {
    const response = await post("{uid: nope");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The body is not valid JSON." });
  });

  it.each([
    [{}, ["uid: is required", "next: is required"]],
    [{ uid: "page", next: { fullPaths: ["/a"] } }, ["uid: must look like api::<name>.<name>"]],
    [{ uid: "api::page.page", next: {} }, ["next: must list at least one of fullPaths or tags"]],
    [
      { uid: "api::page.page", next: { fullPaths: [], tags: [] } },
      ["next: must list at least one of fullPaths or tags"],
    ],
    [{ uid: "api::page.page", next: { fullPaths: ["careers"] } }, ["next.fullPaths.0: must start with /"]],
    [
      { uid: "api::page.page", next: { fullPaths: ["/a/*/b"] } },
      ["next.fullPaths.0: may contain * only as a last segment (/jobs/*)"],
    ],
    [{ uid: "api::page.page", next: { tags: [""] } }, ["next.tags.0: must not be empty"]],
    [{ uid: "api::page.page", next: "all" }, ["next: must be an object"]],
    [{ uid: "api::page.page", next: { fullPaths: ["/a"], expire: "yes" } }, ["next.expire: must be true or false"]],
  ])("answers 400 with a readable list for %j", async (payload, issues) => {
    const response = await post(JSON.stringify(payload));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Invalid revalidation payload.", issues });
  });

  it("revalidates the default-locale variants of each path and the tags, and lists them", async () => {
    const response = await post(
      JSON.stringify({
        uid: "api::page.page",
        next: { fullPaths: ["/careers", "/", "/positions/*", "/*", "/de/karriere"], tags: ["cms:api::navbar.navbar"] },
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      revalidated: true,
      uid: "api::page.page",
      paths: ["/en/careers", "/careers", "/en", "/", "/en/positions/*", "/positions/*", "/*", "/de/karriere"],
      tags: ["cms:api::navbar.navbar"],
      expire: false,
    });
    // The line reaches the captured output through a pipe, possibly after the answer.
    await expect
      .poll(() => app.output())
      .toContain(
        "[revalidate] uid=api::page.page paths=/en/careers,/careers,/en,/,/en/positions/*,/positions/*,/*,/de/karriere " +
          "tags=cms:api::navbar.navbar",
      );
  });

  it("answers 405 to GET", async () => {
    const response = await fetch(`${app.url}/api/cms-revalidate`);
    expect(response.status).toBe(405);
  });
});
