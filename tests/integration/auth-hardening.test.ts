import { request as httpRequest } from "node:http";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { formTokenOf } from "../support/auth-form.ts";
import { standInSite } from "../support/stand-in-site.ts";

// /api/auth/* against the production build: only the endpoints the site uses are open, bodies
// are bounded before better-auth reads them, and rate-limit state is keyed on budgets, not on
// paths a client made up. Each test speaks from its own client IP (TRUST_PROXY=loopback and
// X-Forwarded-For), so their budgets do not meet.
const site = standInSite({
  seed: (cms) => {
    cms.setPage({ fullPath: "/", title: "Home" });
    cms.users.set("ann@example.com", { id: 1, password: "Right-password-1", blocked: false });
  },
  env: {
    AUTH_RATE_LIMIT_MAX: "3",
    TRUST_PROXY: "loopback",
  },
});

let nextClient = 1;
const newClient = () => `203.0.113.${nextClient++}`;

function post(path: string, body: string, headers: Record<string, string>) {
  return fetch(`${site.app.url}${path}`, {
    method: "POST",
    headers: { origin: site.app.url, ...headers },
    body,
    redirect: "manual",
  });
}

/** Headers only, with a Content-Length that promises `declared` bytes that never come. */
function postDeclaring(path: string, declared: number, client: string) {
  const { port } = new URL(site.app.url);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": declared,
          origin: site.app.url,
          "x-forwarded-for": client,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    req.on("error", reject);
    req.flushHeaders();
  });
}

describe("/api/auth/*", () => {
  it.each([
    ["POST", "/api/auth/update-user"],
    ["POST", "/api/auth/change-email"],
    ["POST", "/api/auth/delete-user"],
    ["POST", "/api/auth/sign-up/email"],
    ["POST", "/api/auth/get-access-token"],
    ["GET", "/api/auth/list-accounts"],
    ["GET", "/api/auth/list-sessions"],
    ["POST", "/api/auth/sign-in/email"],
  ])("%s %s is closed (404)", async (method, path) => {
    const response = await fetch(`${site.app.url}${path}`, {
      method,
      headers: { origin: site.app.url, "content-type": "application/json", "x-forwarded-for": newClient() },
      body:
        method === "POST"
          ? JSON.stringify({ providerId: "github", email: "x@example.com", password: "Whatever-1" })
          : undefined,
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("ten concurrent posts declaring 400 MB are refused at once (413), unread", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => postDeclaring("/api/auth/sign-in-cms", 400_000_000, newClient())),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(answer.text).toMatch(/at most 16384 bytes/);
    }
    expect((await fetch(`${site.app.url}/api/auth/get-session`)).status).toBe(200);
  });

  it("a streamed body with no Content-Length is cut off at the limit, and the site stays up", async () => {
    const { port } = new URL(site.app.url);
    const chunk = `{"email":"${"a".repeat(8_000)}`;
    let sent = 0;
    // 413, or the connection closed under a client still sending (TCP may then lose the 413).
    const outcome = await new Promise<number | string>((resolve) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path: "/api/auth/sign-in-cms",
          method: "POST",
          agent: false,
          headers: { origin: site.app.url, "content-type": "application/json", "x-forwarded-for": newClient() },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      // 8 MB if it were all read: chunked, with no Content-Length.
      const writeMore = () => {
        while (sent < 1_000 && !req.destroyed) {
          sent++;
          if (!req.write(chunk)) return void req.once("drain", writeMore);
        }
        req.end();
      };
      writeMore();
    });
    expect([413, "EPIPE", "ECONNRESET"]).toContain(outcome);
    expect(sent).toBeLessThan(1_000);
    expect((await fetch(`${site.app.url}/api/auth/get-session`)).status).toBe(200);
  });

  it("random paths get 404 and spend no budget", async () => {
    const client = newClient();
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z0-9-]{1,30}$/), async (path) => {
        const response = await post(`/api/auth/x-${path}`, "{}", {
          "content-type": "application/json",
          "x-forwarded-for": client,
        });
        expect(response.status).toBe(404);
      }),
      { numRuns: 200 },
    );
    const signIn = await post(
      "/api/auth/sign-in-cms",
      JSON.stringify({ email: "ann@example.com", password: "Right-password-1" }),
      {
        "content-type": "application/json",
        "x-forwarded-for": client,
      },
    );
    expect(signIn.status).toBe(200);
  });

  it("the sign-in form and the JSON sign-in spend one budget", async () => {
    const client = newClient();
    const token = await formTokenOf(site.app.url, "/sign-in");
    const statuses = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      statuses.push(
        (
          await post(
            "/sign-in",
            new URLSearchParams({ ...token, email: "ann@example.com", password: "wrong" }).toString(),
            {
              "content-type": "application/x-www-form-urlencoded",
              "x-forwarded-for": client,
            },
          )
        ).status,
      );
      statuses.push(
        (
          await post("/api/auth/sign-in-cms", JSON.stringify({ email: "ann@example.com", password: "wrong" }), {
            "content-type": "application/json",
            "x-forwarded-for": client,
          })
        ).status,
      );
    }
    // Three attempts are allowed in all, not three on each path.
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another client still has its own budget.
    const other = await post("/api/auth/sign-in-cms", JSON.stringify({ email: "ann@example.com", password: "wrong" }), {
      "content-type": "application/json",
      "x-forwarded-for": newClient(),
    });
    expect(other.status).toBe(401);
  });
});
