import { request as httpRequest } from "node:http";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { AUTH_PAGE_PATHS } from "../../app/lib/auth/paths.ts";
import { postAuthForm } from "../support/auth-form.ts";
import { postRevalidation } from "../support/site-requests.ts";
import { standInSite } from "../support/stand-in-site.ts";
import { until } from "../support/wait.ts";

// The attacks of the security review, against the production build: a Host header or a path
// spelling must never choose what the cache stores for everyone, and no redirect the site
// builds may lead to another host.
const SECRET = "revalidate-secret-0123456789";
const site = standInSite({
  seed: (cms) => {
    cms.setPage({ fullPath: "/", title: "Home" });
    cms.setPage({ fullPath: "/about", title: "About us" });
    cms.setPage({ fullPath: "/company", title: "Company" });
    cms.setPage({ fullPath: "/evil.com", title: "A page called evil.com" });
    // A slug may carry capitals (the CMS's page schema allows A-Z): its address keeps them.
    cms.setPage({ fullPath: "/Team", title: "The Team" });
    cms.users.set("ann@example.com", { id: 1, password: "Right-password-1", blocked: false });
  },
  env: {
    CMS_REVALIDATE_SECRET: SECRET,
    AUTH_RATE_LIMIT_MAX: "1000",
  },
});

/** A raw request: fetch() would not send a hostile Host or an unnormalised path. */
function raw(path: string, headers: Record<string, string> = {}) {
  const { port } = new URL(site.app.url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>(
    (resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path, headers, setHost: !("host" in headers) }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on("error", reject);
      req.end();
    },
  );
}

const revalidate = (fullPaths: string[]) => postRevalidation(site.app.url, SECRET, { fullPaths });

/** Until `path` answers with `text` (a background regeneration has landed). */
const eventually = (path: string, text: string) =>
  until(
    `${path} to show ${text}`,
    () => raw(path),
    (response) => response.text.includes(text),
    { timeoutMs: 5_000 },
  );

describe("the Host header cannot choose what is rendered or cached", () => {
  const hosts = ["x?", "x\\", "x#", "evil.example", "evil.example/other?", "127.0.0.1:1"];

  it.each(hosts.map((host, index) => [host, index]))(
    "Host: %s on a page nobody asked for yet renders that page",
    async (host, index) => {
      site.cms.setPage({ fullPath: `/about-${index}`, title: `About number ${index}` });
      // The attack: the entry is missing, so this request's render is the one that gets stored.
      const attack = await raw(`/about-${index}`, { host: String(host), "x-forwarded-host": "evil.example" });
      expect(attack.status).toBe(200);
      expect(attack.text).toContain(`About number ${index}`);
      expect(attack.text).not.toContain("<h1>Home</h1>");
      // What everybody else now gets from the cache.
      const next = await raw(`/about-${index}`);
      expect(next.headers["x-cache"]).toBe("HIT");
      expect(next.text).toContain(`About number ${index}`);
      expect(next.text).not.toMatch(/evil\.example|x\?|x\\/);
    },
  );

  it("a stale page regenerated for a request with a hostile Host is still that page", async () => {
    await raw("/about");
    site.cms.setPage({ fullPath: "/about", title: "About us, revised" });
    await revalidate(["/about"]);
    // This request gets the stale page and starts the regeneration with its own URL.
    const attack = await raw("/about", { host: "x?" });
    expect(attack.headers["x-cache"]).toBe("STALE");
    const regenerated = await eventually("/about", "About us, revised");
    expect(regenerated.text).not.toContain("<h1>Home</h1>");
  });
});

describe("one spelling per page", () => {
  it.each([
    ["//company", "/company"],
    ["/%63ompany", "/company"],
    ["/en//company", "/en/company"],
    ["/company/", "/company"],
    ["/company//", "/company"],
    ["/x/../company", "/company"],
    ["/%2e/company", "/company"],
    ["/company?utm_source=news", null],
    ["//company/?a=1", "/company?a=1"],
  ])("%s redirects (308) to %s before the cache", async (path, location) => {
    const response = await raw(path);
    if (location === null) {
      expect(response.status).toBe(200);
      return;
    }
    expect(response.status).toBe(308);
    expect(response.headers.location).toBe(location);
    expect(response.headers["x-cache"]).toBeUndefined();
  });

  it("a revalidation of /company reaches every way of asking for it", async () => {
    site.cms.setPage({ fullPath: "/company", title: "Company, first" });
    await revalidate(["/company"]);
    await eventually("/company", "Company, first");
    site.cms.setPage({ fullPath: "/company", title: "Company, second" });
    await revalidate(["/company"]);
    await eventually("/company", "Company, second");
    for (const spelling of ["//company", "/%63ompany", "/company/", "/en/../company"]) {
      const redirect = await raw(spelling);
      expect(redirect.headers.location).toBe("/company");
      expect((await raw("/company")).text).toContain("Company, second");
    }
  });

  it("a path that has no canonical form is a 400, not a cache entry", async () => {
    for (const path of ["/%", "/a%2fb", "/a%00b", "/%ff"]) {
      const response = await raw(path);
      expect(response.status, path).toBe(400);
      expect(response.text).toMatch(/Check the address/);
      expect(response.headers["x-cache"]).toBeUndefined();
    }
  });
});

describe("one letter case for the site's own routes", () => {
  const session = { cookie: "better-auth.session_token=any-value" };
  /** `/forgot-password` → `/Forgot-Password`. */
  const titleCase = (path: string) =>
    path.replace(/(^|[/-])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());

  it.each(AUTH_PAGE_PATHS)(
    "%s in mixed case, as .data, under /de/, with and without a session: a 308 to it, never stored or public",
    async (page) => {
      const spellings: Array<[string, string | null]> = [
        [titleCase(page), page],
        [page.toUpperCase(), page],
        [`${titleCase(page)}.data`, `${page}.data`],
        [`/de${titleCase(page)}`, `/de${page}`],
        [`/de${page.toUpperCase()}.data`, `/de${page}.data`],
        // Canonical already: the auth page itself, and a locale segment that is no locale (a 404).
        [page, null],
        [`/de${page}.data`, null],
        [`/DE${page}`, null],
      ];
      for (const [spelling, location] of spellings) {
        for (const headers of [{}, session]) {
          // Twice: a first answer that had been stored would come back as a HIT.
          for (let attempt = 0; attempt < 2; attempt++) {
            const response = await raw(spelling, headers);
            const what = `${spelling} ${JSON.stringify(headers)} #${attempt}`;
            expect(response.headers["x-cache"], what).toBeUndefined();
            expect(String(response.headers["cdn-cache-control"]), what).not.toMatch(/public/);
            if (location) {
              expect(response.status, what).toBe(308);
              expect(response.headers.location, what).toBe(location);
            } else {
              expect(response.status, what).not.toBe(308);
              expect(response.headers["cdn-cache-control"], what).toBe("no-store");
            }
          }
        }
      }
    },
  );

  it("a planted preview cookie makes no spelling of /account framable by the CMS", async () => {
    for (const spelling of ["/Account", "/ACCOUNT", "/account", "/de/Account", "/Account/Two-Factor"]) {
      const response = await raw(spelling, { cookie: "site_preview=planted" });
      const frameAncestors = /frame-ancestors ([^;]*)/.exec(String(response.headers["content-security-policy"]));
      expect(frameAncestors?.[1], spelling).toBe("'self'");
      expect(response.headers["x-frame-options"], spelling).toBe("SAMEORIGIN");
    }
  });

  it.each([
    ["/Sitemap.xml", "/sitemap.xml"],
    ["/ROBOTS.TXT", "/robots.txt"],
    ["/API/Preview/Exit", "/api/preview/exit"],
    ["/Api/Auth/get-session", "/api/auth/get-session"],
    ["/Uploads/Photo.JPG", "/uploads/Photo.JPG"],
  ])("%s redirects (308) to %s: a route's own segments, its parameters as they came", async (path, location) => {
    const response = await raw(path);
    expect(response.status).toBe(308);
    expect(response.headers.location).toBe(location);
  });

  it("a CMS page keeps the case of its slug: /Team is the page, /team another address", async () => {
    const page = await raw("/Team");
    expect(page.status).toBe(200);
    expect(page.text).toContain("The Team");
    expect((await raw("/team")).status).toBe(404);
  });
});

describe("a raw '#' in the request target", () => {
  it("GET /about#session with no cookie never gets the signed-in variant (stored under that key)", async () => {
    const session = { cookie: "better-auth.session_token=any-value" };
    await raw("/about", session);
    const signedIn = await raw("/about", session);
    expect(signedIn.headers["x-cache"]).toBe("HIT");
    expect(signedIn.headers["cdn-cache-control"]).toBe("no-store");
    for (const target of ["/about#session", "/about?utm=1#session", "/about#", "/About#session"]) {
      const response = await raw(target);
      expect(response.status, target).toBe(400);
      expect(response.text, target).toMatch(/raw '#'/);
      expect(response.headers["x-cache"], target).toBeUndefined();
    }
    // The page's anonymous variant is untouched.
    const anonymous = await raw("/about");
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers["cdn-cache-control"]).not.toBe("no-store");
  });
});

describe("no redirect leads off-site", () => {
  it("GET //evil.com/ stays on this site, and the cache keeps no such redirect", async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await raw("//evil.com/");
      expect(response.status).toBe(308);
      expect(response.headers.location).toBe("/evil.com");
    }
  });

  it("CMS redirects with //, /\\ and dot tricks become paths on this site", async () => {
    for (const [source, destination, expected] of [
      ["/en/old-a", "//evil.example/x", "/evil.example/x"],
      ["/en/old-b", "/\\evil.example", "/evil.example"],
      ["/en/old-c", "/.//evil.example", "/evil.example"],
      ["/en/old-d", "/positions/", "/positions"],
    ] as const) {
      site.cms.redirects.set(source, { destination, permanent: false });
      const response = await raw(source.replace(/^\/en/, ""));
      expect(response.status, source).toBe(307);
      expect(response.headers.location, source).toBe(expected);
    }
  });

  it("sign-in: hostile redirectTo values land on this site", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(
            "/.//evil.com",
            "/a/..//evil.com",
            "/%2e//evil.com",
            "//evil.com",
            "/\\evil.com",
            "https://evil.com",
            "/%2e%2e/%2e%2e//evil.com",
          ),
          fc
            .array(
              fc.constantFrom("/", "\\", ".", "..", "%2e", "%2f", "%5c", "evil.com", "@", "http:", "javascript:"),
              { maxLength: 6 },
            )
            .map((pieces) => pieces.join("")),
        ),
        async (redirectTo) => {
          const response = await postAuthForm(site.app.url, "/sign-in", {
            email: "ann@example.com",
            password: "Right-password-1",
            redirectTo,
          });
          const location = response.headers.get("location");
          expect(location, redirectTo).not.toBeNull();
          expect(new URL(location!, `${site.app.url}/sign-in`).origin, `${redirectTo} -> ${location}`).toBe(
            site.app.url,
          );
          expect(location).toMatch(/^\/(?![/\\])/);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});
