import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";

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

describe("when the CMS fails", () => {
  it("a CMS that is down gives a 503 page that says so", async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const html = await response.text();
    expect(html).toContain("The content service is temporarily unavailable. Please try again in a moment.");
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
