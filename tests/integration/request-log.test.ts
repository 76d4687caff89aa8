import { connect } from "node:net";

import { describe, expect, it } from "vitest";

import { getPage, postRevalidation } from "../support/site-requests.ts";
import { standInSite } from "../support/stand-in-site.ts";
import { until } from "../support/wait.ts";

// The production site's log: one JSON line per request (pino) carrying the request's id, which
// is taken from X-Request-Id only when it is plainly an id, and one line per revalidation.
const SECRET = "request-log-revalidate-secret-0123";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const site = standInSite({
  seed: (cms) => cms.setPage({ fullPath: "/company", title: "Company" }),
  env: { CMS_REVALIDATE_SECRET: SECRET },
});

type Line = Record<string, unknown>;
/** The JSON lines of the site's output (anything else it printed is skipped). */
function lines(): Line[] {
  return site.app
    .output()
    .split("\n")
    .flatMap((text) => {
      try {
        return text.startsWith("{") ? [JSON.parse(text) as Line] : [];
      } catch {
        return [];
      }
    });
}
const linesOf = (reqId: string, count = 1) =>
  until(
    `${count} log line(s) of ${reqId}`,
    () => lines().filter((line) => line.reqId === reqId),
    (found) => found.length >= count,
  );

/** A GET with a header value no HTTP client would send (control characters), written on a raw socket. */
function rawGet(path: string, requestId: string): Promise<{ status: number; requestId: string | undefined }> {
  const url = new URL(site.app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n`,
      );
    });
    let head = "";
    socket.on("data", (chunk: Buffer) => (head += chunk.toString("latin1")));
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, requestId: /^x-request-id: (.*)\r$/im.exec(head)?.[1] });
    });
    socket.on("error", reject);
  });
}

describe("request log", () => {
  it("one JSON line per request with its id, method, path, status, cache status and duration; the id is echoed", async () => {
    const miss = await getPage(site.app.url, "/company", { "x-request-id": "edge-1:abc.DEF_9" });
    expect(miss.headers.get("x-request-id")).toBe("edge-1:abc.DEF_9");
    // The second is answered by the HIT fast path, before Express: it carries and logs its id too.
    const hit = await getPage(site.app.url, "/company", { "x-request-id": "edge-2" });
    expect(hit.cache).toBe("HIT");
    expect(hit.headers.get("x-request-id")).toBe("edge-2");
    const [first] = await linesOf("edge-1:abc.DEF_9");
    expect(first).toMatchObject({ level: "info", msg: "request", method: "GET", path: "/company", status: 200 });
    expect(first!.cache).toBe("MISS");
    expect(typeof first!.ms).toBe("number");
    const [second] = await linesOf("edge-2");
    expect(second).toMatchObject({ path: "/company", status: 200, cache: "HIT" });
  });

  it("a request without an id gets a new one; a hostile one (10 KB, control characters, spaces) is replaced", async () => {
    const none = await getPage(site.app.url, "/company");
    expect(none.headers.get("x-request-id")).toMatch(UUID);
    await linesOf(none.headers.get("x-request-id")!);

    const long = "a".repeat(10 * 1024);
    const huge = await getPage(site.app.url, "/company", { "x-request-id": long });
    expect(huge.status).toBe(200);
    expect(huge.headers.get("x-request-id")).toMatch(UUID);
    for (const hostile of ["id\twith\ttabs", "id with spaces", "<script>alert(1)</script>"]) {
      const answer = await rawGet("/company", hostile);
      expect(answer.status).toBe(200);
      expect(answer.requestId).toMatch(UUID);
      await linesOf(answer.requestId!);
    }
    // Other control characters (and line breaks) Node's parser refuses before the site sees them.
    expect((await rawGet("/company", "id\u0001control")).status).toBe(400);
    const output = site.app.output();
    expect(output).not.toContain("a".repeat(200));
    expect(output).not.toContain("tabs");
    expect(output).not.toContain("control");
    expect(output).not.toContain("<script>");
  });

  it("never logs the query string (it may carry a secret)", async () => {
    const answer = await getPage(site.app.url, "/company?token=do-not-log-me", { "x-request-id": "with-query" });
    expect(answer.status).toBe(200);
    const [line] = await linesOf("with-query");
    expect(line!.path).toBe("/company");
    expect(site.app.output()).not.toContain("do-not-log-me");
  });

  it("one line per revalidation, with the request's id, its paths and tags and the result", async () => {
    await postRevalidation(
      site.app.url,
      SECRET,
      { fullPaths: ["/company"], tags: ["cms:api::navbar.navbar"] },
      undefined,
      {
        "x-request-id": "cms-revalidate-1",
      },
    );
    const found = await linesOf("cms-revalidate-1", 2);
    expect(found.find((line) => line.event === "revalidation")).toMatchObject({
      uid: "api::page.page",
      paths: ["/en/company", "/company"],
      tags: ["cms:api::navbar.navbar"],
      expire: false,
      result: "revalidated",
    });
    expect(found.find((line) => line.msg === "request")).toMatchObject({
      method: "POST",
      path: "/api/cms-revalidate",
      status: 200,
    });
  });
});
