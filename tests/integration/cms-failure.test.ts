import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";
import { until } from "../support/wait.ts";

// The production site against a stand-in CMS that is down, answers HTML, answers 500, then
// is healthy again. The site must answer with a clear error page each time, cache none of
// them, and keep running.
const cms = new StandInCms(await getPort());
let app: AppHandle;

beforeAll(async () => {
  cms.setPage({ title: "Stand-in home", fullPath: "/" });
  app = await startApp({
    port: await getPort(),
    env: { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789", CMS_FETCH_TIMEOUT_MS: "1000" },
  });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await cms.stop();
});

/** The site's JSON log lines so far. */
function jsonLines(): Array<Record<string, unknown>> {
  return app
    .output()
    .split("\n")
    .filter((text) => text.startsWith("{"))
    .map((text) => JSON.parse(text) as Record<string, unknown>);
}

/** The messages of a request's lines, once its own request line (the last, written at its end) is there. */
async function messagesOf(reqId: string): Promise<unknown[]> {
  const lines = await until(
    `the lines of ${reqId}`,
    () => jsonLines().filter((line) => line.reqId === reqId),
    (found) => found.some((line) => line.msg === "request"),
  );
  return lines.map((line) => line.msg);
}

describe("when the CMS fails", () => {
  it("a CMS that is down gives a 503 page that says so", async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const html = await response.text();
    expect(html).toContain("The content service is temporarily unavailable. Please try again in a moment.");
  });

  it("the operator's lines about a request rendered for it carry its id, as its request line and X-Request-Id do", async () => {
    // The loaders log through the request's logger (decision 0049). A render made for the shared
    // cache may answer several requests and carries none; these two are each one request's own:
    // a page the cache never keeps, and a page asked for with an Authorization header (bypassed).
    const signIn = await fetch(`${app.url}/sign-in`, { headers: { "x-request-id": "cms-down-1" } });
    await signIn.arrayBuffer();
    expect(await messagesOf("cms-down-1")).toEqual(
      expect.arrayContaining(["[cms] navbar/footer unavailable: The CMS could not be reached (/api/navbar)."]),
    );
    const page = await fetch(`${app.url}/company`, {
      headers: { "x-request-id": "cms-down-2", authorization: "Bearer not-for-the-cache" },
    });
    expect(page.status).toBe(503);
    expect(await messagesOf("cms-down-2")).toEqual(
      expect.arrayContaining([
        "[cms] navbar/footer unavailable: The CMS could not be reached (/api/navbar).",
        expect.stringMatching(/^\[cms\] The CMS could not be reached \(\/api\/pages\)/),
      ]),
    );
  });

  it("a CMS answering garbage gives a 502 page", async () => {
    await cms.start();
    cms.mode = "garbage";
    const response = await fetch(`${app.url}/company`);
    expect(response.status).toBe(502);
    // The Error page's words are the CMS's too: garbage there as well, so the built-in ones; one title.
    const html = await response.text();
    expect(html).toContain("This page could not be loaded. Please try again later.");
    expect(html.match(/<title>/g)).toHaveLength(1);
  });

  it("a CMS answering 500 gives a 502 page", async () => {
    cms.mode = "error";
    const response = await fetch(`${app.url}/company`);
    expect(response.status).toBe(502);
  });

  it("the site recovers by itself once the CMS is healthy again", async () => {
    cms.mode = "healthy";
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Stand-in home");
    expect(html).toContain("Stand-in footer");
    // The operator gets the detail in the log; the visitor never sees it.
    expect(app.output()).toContain("The CMS could not be reached (/api/navbar).");
  });
});
