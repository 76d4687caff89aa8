import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";

// Issue 14, points 2 and 6, through the real Strapi and the production site: the seeded image of
// the company page loads through the site's /uploads proxy (src and every srcset candidate),
// nothing outside /uploads/ is proxied; the 404 page shows the CMS's Error page, a publish of it
// reaches cached 404s, and with the CMS gone the site's own words are shown, still with a 404.
const REVALIDATE_SECRET = "media-errors-revalidate-secret-0123456789";
const ERROR_PAGE = "api::error-page.error-page";
const dir = mkdtempSync(path.join(tmpdir(), "cms-media-errors-"));
let cms: CmsHandle;
let app: AppHandle;
let admin: StrapiAdmin;

beforeAll(async () => {
  const [cmsPort, appPort] = [await getPort(), await getPort()];
  cms = await startCms({
    port: cmsPort,
    dbFile: path.join(dir, "cms.db"),
    fresh: true,
    env: { CLIENT_URL: `http://127.0.0.1:${appPort}`, CMS_REVALIDATE_SECRET: REVALIDATE_SECRET },
  });
  app = await startApp({
    port: appPort,
    env: { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: cms.token, CMS_REVALIDATE_SECRET: REVALIDATE_SECRET },
  });
  admin = await StrapiAdmin.login(cms.url);
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await cms?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function get(url: string, init?: RequestInit) {
  const response = await fetch(url, { redirect: "manual", ...init });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body, text: body.toString("utf8") };
}

/** One request with the path exactly as given (fetch would resolve `..` and `%2e%2e` itself). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: rawPath }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Follows redirects by hand from a raw path: every hop's status and path. */
async function hops(rawPath: string) {
  const port = Number(new URL(app.url).port);
  const seen: Array<{ path: string; status: number }> = [];
  let current = rawPath;
  for (let hop = 0; hop < 5; hop++) {
    const answer = await rawGet(port, current);
    seen.push({ path: current, status: answer.status });
    if (answer.status < 300 || answer.status >= 400 || !answer.location) break;
    current = answer.location;
  }
  return seen;
}

/** The attributes of every `<img>` inside the page's article. */
function images(html: string): Array<Record<string, string>> {
  const article = html.slice(html.indexOf('<article class="cms-page"'), html.indexOf("</article>"));
  return [...article.matchAll(/<img\b([^>]*)>/g)].map(([, attributes]) =>
    Object.fromEntries(
      [...(attributes ?? "").matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map(([, name, value]) => [
        name!.toLowerCase(),
        value!.replaceAll("&amp;", "&"),
      ]),
    ),
  );
}

async function until<T>(what: string, read: () => Promise<T>, found: (value: T) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (found(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The site has applied the CMS's revalidation of the Error page (its log line). */
const errorPageRevalidated = (from: number) =>
  until(
    "the site to log the revalidation of the Error page",
    async () => app.output().slice(from),
    (log) => log.includes(`[revalidate] uid=${ERROR_PAGE} paths=- tags=cms:${ERROR_PAGE} stale`),
  );

describe("CMS media through the site", () => {
  it("the company page's image: alt, box, srcset of every format and the original, sizes; eager as the first", async () => {
    // The image's alternative text is the page's language's (its placement's, decision 0040).
    for (const [pagePath, alt] of [
      ["/company", "The Acme logo: a white A on dark blue"],
      ["/de/company", "Das Acme-Logo: ein weißes A auf Dunkelblau"],
    ] as const) {
      const page = await get(`${app.url}${pagePath}`);
      expect(page.status, pagePath).toBe(200);
      const [image, ...others] = images(page.text);
      expect(others, pagePath).toEqual([]);
      expect(image, pagePath).toMatchObject({
        // With the file's version: Strapi keeps the URL of a replaced file (docs/decisions/0036).
        src: expect.stringMatching(/^\/uploads\/acme_share_\w+\.png\?v=[0-9a-z]+$/),
        alt,
        width: "1200",
        height: "630",
        loading: "eager",
        fetchpriority: "high",
        sizes: "(max-width: 45rem) calc(100vw - 3rem), 42rem",
      });
      const candidates = image!.srcset!.split(", ").map((candidate) => candidate.split(" "));
      expect(candidates.map(([, width]) => width)).toEqual(["245w", "500w", "750w", "1000w", "1200w"]);
      expect(candidates.map(([url]) => url)).toEqual([
        expect.stringMatching(/^\/uploads\/thumbnail_acme_share_\w+\.png\?v=[0-9a-z]+$/),
        expect.stringMatching(/^\/uploads\/small_acme_share_\w+\.png\?v=[0-9a-z]+$/),
        expect.stringMatching(/^\/uploads\/medium_acme_share_\w+\.png\?v=[0-9a-z]+$/),
        expect.stringMatching(/^\/uploads\/large_acme_share_\w+\.png\?v=[0-9a-z]+$/),
        image!.src,
      ]);
    }
  });

  it("src and every srcset URL answer 200 through the site: the CMS's bytes, an image type, a year's immutable caching, never the page cache", async () => {
    const [image] = images((await get(`${app.url}/company`)).text);
    const urls = image!.srcset!.split(", ").map((candidate) => candidate.split(" ")[0]!);
    expect(urls).toContain(image!.src);
    for (const url of urls) {
      const served = await get(`${app.url}${url}`);
      expect(served.status, url).toBe(200);
      expect(served.headers.get("content-type"), url).toMatch(/^image\//);
      expect(served.headers.get("cache-control"), url).toBe("public, max-age=31536000, immutable");
      expect(served.headers.get("x-cache"), url).toBeNull();
      expect(served.headers.get("content-security-policy"), url).toContain("sandbox");
      const original = await get(`${cms.url}${url}`);
      expect(served.body.equals(original.body), url).toBe(true);
    }
  });

  it("og:image is the site's own address of the share image, and loads", async () => {
    const page = await get(`${app.url}/company`);
    const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(page.text)?.[1];
    expect(ogImage).toMatch(new RegExp(`^${app.url}/uploads/acme_share_\\w+\\.png$`));
    const served = await get(ogImage!);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
  });

  it("HEAD answers the headers alone", async () => {
    const [image] = images((await get(`${app.url}/company`)).text);
    const head = await get(`${app.url}${image!.src}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/png");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
    expect(head.body.length).toBe(0);
  });

  it("nothing outside /uploads/ is proxied: dot segments, plain or encoded, end on the site's 404, never on a CMS file", async () => {
    // Strapi serves more than uploads at its root (its favicon, the API): none of it leaks.
    for (const raw of ["/uploads/../x", "/uploads/%2e%2e/x", "/uploads/%2E%2E/favicon.png", "/not-uploads"]) {
      const seen = await hops(raw);
      expect(seen.at(-1)?.status, JSON.stringify(seen)).toBe(404);
      expect(seen.every((hop) => hop.status !== 200)).toBe(true);
      expect(seen.every((hop) => !hop.path.startsWith("/uploads/") || hop.path === raw)).toBe(true);
    }
    expect((await get(`${app.url}/uploads/%2e%2e/x`)).status).toBe(404);
    expect((await get(`${app.url}/not-uploads`)).status).toBe(404);
  });

  it("a file the CMS does not have is a 404 that is not stored, with or without an extension", async () => {
    for (const missing of ["/uploads/nothing_here.png", "/uploads/nothing-here"]) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await get(`${app.url}${missing}`);
        expect(answer.status, missing).toBe(404);
        expect(answer.headers.get("x-cache"), missing).toBeNull();
        expect(answer.headers.get("cache-control"), missing).toBe("no-store");
      }
    }
  });
});

describe("the CMS's Error page", () => {
  it("a 404 shows the Error page of its locale, is cached in the not-found budget and carries its tag", async () => {
    const english = await get(`${app.url}/no-such-page`);
    expect(english.status).toBe(404);
    expect(english.text).toContain("<h1>Page not found</h1>");
    expect(english.text).toContain("We looked everywhere, but there is no page at this address.");
    expect(english.headers.get("x-cache")).toBe("MISS");
    expect(english.headers.get("cache-tag")?.split(",")).toContain(`cms:${ERROR_PAGE}`);
    expect((await get(`${app.url}/no-such-page`)).headers.get("x-cache")).toBe("HIT");

    const german = await get(`${app.url}/de/keine-seite`);
    expect(german.status).toBe(404);
    expect(german.text).toContain("<h1>Seite nicht gefunden</h1>");
    expect(german.text).toContain("Unter dieser Adresse gibt es keine Seite. Versuchen Sie es über das Menü oben.");
  });

  it("an editor changes and publishes it: the cached 404 is revalidated by its tag and shows the new words", async () => {
    expect((await get(`${app.url}/no-such-page`)).headers.get("x-cache")).toBe("HIT");
    const from = app.output().length;
    await admin.updateAndPublishSingleType(ERROR_PAGE, "en", {
      notFoundTitle: "Lost?",
      notFoundText: "This address leads nowhere (edited).",
      errorTitle: "Something went wrong",
      errorText: "Please try again in a moment.",
    });
    await errorPageRevalidated(from);
    // Stale-while-revalidate, as for the navbar: served once more while it is rendered anew.
    const next = await until(
      "the 404 with the new words",
      () => get(`${app.url}/no-such-page`),
      (answer) => answer.text.includes("This address leads nowhere (edited)."),
    );
    expect(next.status).toBe(404);
    expect(next.text).toContain("<h1>Lost?</h1>");
    // The German entry is another locale: untouched.
    expect((await get(`${app.url}/de/keine-seite`)).text).toContain("Seite nicht gefunden");
  }, 30_000);

  it("the CMS gone: the site's own words, still a 404 (never a 500), and not stored", async () => {
    // Cache what the site knows about /gone-missing (no page, no redirect: fresh for 120 s), then
    // publish the Error page so its own data is stale, then stop the CMS.
    expect((await get(`${app.url}/gone-missing`)).text).toContain("This address leads nowhere (edited).");
    const from = app.output().length;
    await admin.updateAndPublishSingleType(ERROR_PAGE, "en", {
      notFoundTitle: "Lost again?",
      notFoundText: "Edited once more.",
      errorTitle: "Something went wrong",
      errorText: "Please try again in a moment.",
    });
    await errorPageRevalidated(from);
    await cms.stop();

    // Another spelling of the same page: a page-cache miss, rendered from the cached page data.
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await get(`${app.url}/en/gone-missing`);
      expect(answer.status).toBe(404);
      expect(answer.text).toContain("<h1>Page not found</h1>");
      expect(answer.text).toContain("There is no page at this address.");
      expect(answer.text).not.toContain("Lost");
      expect(answer.headers.get("x-cache")).not.toBe("HIT");
    }
  }, 30_000);
});
