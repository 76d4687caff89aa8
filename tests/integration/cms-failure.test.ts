import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { projectRoot, startApp, type AppHandle } from "../support/app-server.ts";

// The production site against a stand-in CMS whose behaviour each test chooses:
// down, answering HTML, answering 500, then healthy again. The site must answer with a
// clear error page each time and keep running.
const CMS_PORT = 3193;
let mode: "garbage" | "error" | "healthy" = "healthy";
let cms: Server | undefined;
let app: AppHandle;

const page = {
  documentId: "home",
  locale: "en",
  title: "Stand-in home",
  fullPath: "/",
  body: [{ type: "paragraph", children: [{ type: "text", text: "Hello" }] }],
  seo: null,
};

function standInCms(req: IncomingMessage, res: ServerResponse) {
  if (mode === "garbage") return res.writeHead(200, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>");
  if (mode === "error") return res.writeHead(500).end("{}");
  const json = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (req.url?.startsWith("/api/pages")) return json({ data: [page] });
  if (req.url?.startsWith("/api/navbar")) return json({ data: { links: [{ label: "Home", url: "/" }] } });
  if (req.url?.startsWith("/api/footer")) return json({ data: { links: [], note: "Stand-in footer" } });
  return json({ data: [] });
}

async function startCms() {
  cms = createServer(standInCms);
  await new Promise<void>((resolve) => cms?.listen(CMS_PORT, "127.0.0.1", resolve));
}
async function stopCms() {
  await new Promise<void>((resolve) => (cms ? cms.close(() => resolve()) : resolve()));
  cms?.closeAllConnections();
  cms = undefined;
}

beforeAll(async () => {
  if (!existsSync(path.join(projectRoot, "build/server/index.js"))) {
    throw new Error("No production build: run `npm run build` first (npm run test:all does).");
  }
  app = await startApp({
    port: 3192,
    env: {
      APP_PUBLIC_URL: "http://127.0.0.1:3192",
      CMS_URL: `http://127.0.0.1:${CMS_PORT}`,
      CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789",
      CMS_FETCH_TIMEOUT_MS: "1000",
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await stopCms();
});

describe("when the CMS fails", () => {
  it("a CMS that is down gives a 503 page that says so", async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(503);
    const html = await response.text();
    expect(html).toContain("The content service is temporarily unavailable. Please try again in a moment.");
  });

  it("a CMS answering garbage gives a 502 page", async () => {
    await startCms();
    mode = "garbage";
    const response = await fetch(`${app.url}/company`);
    expect(response.status).toBe(502);
    expect(await response.text()).toContain("The content service sent an answer we could not use.");
  });

  it("a CMS answering 500 gives a 502 page", async () => {
    mode = "error";
    const response = await fetch(`${app.url}/company`);
    expect(response.status).toBe(502);
  });

  it("the site recovers by itself once the CMS is healthy again", async () => {
    mode = "healthy";
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Stand-in home");
    expect(html).toContain("Stand-in footer");
    // The operator gets the detail in the log; the visitor never sees it.
    expect(app.output()).toContain("[cms] The CMS could not be reached (/api/navbar).");
  });
});
