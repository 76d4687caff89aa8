import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { previewLink } from "../support/preview-link.ts";
import { StandInCms } from "../support/stand-in-cms.ts";

// Security finding 31: cookies a sibling subdomain can plant. Any host under the same registrable
// domain (a tenant, a user-content host, a dangling DNS record) may set a cookie with
// `Domain=example.com`, which the browser then sends to www.example.com too; it cannot set a
// `__Host-` one. The production build behind a TLS proxy (APP_PUBLIC_URL https, the server itself
// on http, as deployed), against a stand-in CMS; and the same build on http, as in development.
const PUBLIC_URL = "https://www.example.com";
const PREVIEW_SECRET = "preview-secret-0123456789";
const cms = new StandInCms(await getPort());
let https: AppHandle;
let http: AppHandle;

beforeAll(async () => {
  await cms.start();
  cms.users.set("victim@example.com", { id: 1, password: "Victim-password-1", blocked: false });
  cms.users.set("mallory@example.com", { id: 2, password: "Mallory-password-2", blocked: false });
  cms.setPage({ fullPath: "/company", title: "Company" });
  const env = {
    CMS_URL: cms.url,
    CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789",
    CMS_FETCH_TIMEOUT_MS: "1000",
    CMS_PREVIEW_SECRET: PREVIEW_SECRET,
  };
  [https, http] = await Promise.all([
    startApp({ port: await getPort(), env: { ...env, APP_PUBLIC_URL: PUBLIC_URL } }),
    startApp({ port: await getPort(), env }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([https?.stop(), http?.stop()]);
  await cms.stop();
});

/** A JSON sign-in, from the site's own origin (the public one: the https site checks it). */
async function signIn(site: AppHandle, origin: string, email: string, password: string): Promise<string[]> {
  const response = await fetch(`${site.url}/api/auth/sign-in-cms`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie();
}

const nameOf = (setCookie: string) => setCookie.slice(0, setCookie.indexOf("="));
const valueOf = (setCookies: string[], name: string) =>
  setCookies
    .find((cookie) => nameOf(cookie) === name)
    ?.split(";")[0]
    ?.slice(name.length + 1) ?? "";
/** The value of the cookie whose name ends so, whatever its prefix. */
const valueEndingIn = (setCookies: string[], suffix: string) =>
  valueOf(setCookies, setCookies.map(nameOf).find((name) => name.endsWith(suffix)) ?? suffix);
/** The Cookie header a browser sends back after these Set-Cookie headers. */
const cookieHeader = (setCookies: string[]) =>
  setCookies
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

async function get(site: AppHandle, path: string, cookie?: string) {
  const response = await fetch(`${site.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const csp = response.headers.get("content-security-policy") ?? "";
  return {
    status: response.status,
    location: response.headers.get("location"),
    cache: response.headers.get("x-cache"),
    setCookies: response.headers.getSetCookie(),
    frameAncestors: /frame-ancestors ([^;]*)/.exec(csp)?.[1],
    text: await response.text(),
  };
}

/** Whether a page was rendered for a signed-in visitor (the header's Sign out form). */
const signedInPage = (text: string) => /<form [^>]*action="\/sign-out"/.test(text);

function expectHostCookie(setCookie: string) {
  expect(setCookie).toMatch(/^__Host-/);
  expect(setCookie).toMatch(/; Path=\/(;|$)/);
  expect(setCookie).toMatch(/; Secure(;|$)/);
  expect(setCookie).not.toMatch(/; Domain=/i);
}

describe("on https", () => {
  it("signing in sets __Host- cookies only (session and known device): Secure, Path=/, no Domain; they sign in", async () => {
    const setCookies = await signIn(https, PUBLIC_URL, "victim@example.com", "Victim-password-1");
    expect(setCookies.map(nameOf)).toEqual(
      expect.arrayContaining([
        "__Host-better-auth.session_token",
        "__Host-better-auth.session_data",
        "__Host-acme.known_device",
      ]),
    );
    for (const setCookie of setCookies) expectHostCookie(setCookie);
    const account = await get(https, "/account", cookieHeader(setCookies));
    expect(account.status).toBe(200);
    expect(account.text).toContain("victim@example.com");
  });

  it("a session a sibling subdomain planted (__Secure- or plain name) is no session: not read, and the page cache serves the anonymous page", async () => {
    // Mallory signs in on the real site, then plants her own session's values, under the names a
    // sibling subdomain can set, in the victim's browser.
    const mallory = await signIn(https, PUBLIC_URL, "mallory@example.com", "Mallory-password-2");
    const token = valueEndingIn(mallory, "better-auth.session_token");
    const data = valueEndingIn(mallory, "better-auth.session_data");
    expect(token).not.toBe("");
    const anonymous = await get(https, "/company");
    expect(signedInPage(anonymous.text)).toBe(false);
    for (const prefix of ["__Secure-", ""]) {
      const planted = `_ga=GA1.1.1; ${prefix}better-auth.session_token=${token}; ${prefix}better-auth.session_data=${data}`;
      const account = await get(https, "/account", planted);
      expect(account.status, prefix).toBe(302);
      expect(account.location, prefix).toMatch(/^\/sign-in\?redirectTo=/);
      expect(account.text, prefix).not.toContain("mallory@example.com");
      const page = await get(https, "/company", planted);
      expect(page.cache, prefix).toBe("HIT");
      expect(page.text, prefix).toBe(anonymous.text);
    }
    // Her real session cookie, under its real name, is a session (the same values, so only the name differs).
    const real = await get(https, "/account", cookieHeader(mallory));
    expect(real.status).toBe(200);
    expect(real.text).toContain("mallory@example.com");
    const signedIn = await get(https, "/company", cookieHeader(mallory));
    expect(signedInPage(signedIn.text)).toBe(true);
  });

  it("preview cookies are __Host- cookies; planted under another name, they neither bypass the cache nor let the CMS frame the page", async () => {
    const enter = await get(https, previewLink(PREVIEW_SECRET, { path: "/company", status: "draft" }));
    expect(enter.status).toBe(307);
    expect(enter.setCookies.map(nameOf)).toEqual(["__Host-site_preview", "__Host-site_preview_published"]);
    for (const setCookie of enter.setCookies) expectHostCookie(setCookie);
    const published = await get(https, previewLink(PREVIEW_SECRET, { path: "/company", status: "published" }));
    expect(published.setCookies.find((cookie) => cookie.startsWith("__Host-site_preview_published=1;"))).toBeDefined();
    for (const setCookie of published.setCookies) expectHostCookie(setCookie);

    const draft = valueEndingIn(enter.setCookies, "site_preview");
    await get(https, "/company");
    for (const planted of [`site_preview=${draft}`, "site_preview_published=1", "__Secure-site_preview_published=1"]) {
      const page = await get(https, "/company", planted);
      expect(page.cache, planted).toBe("HIT");
      expect(page.frameAncestors, planted).toBe("'self'");
    }
    // The real ones (which only this host can set) still work.
    const framed = await get(https, "/company", "__Host-site_preview_published=1");
    expect(framed.cache).toBe("BYPASS");
    expect(framed.frameAncestors).toBe(`'self' ${cms.url}`);
  });
});

describe("on http (development)", () => {
  it("the names stay plain, without Secure (browsers refuse __Host- and Secure cookies over http)", async () => {
    const setCookies = await signIn(http, http.url, "victim@example.com", "Victim-password-1");
    expect(setCookies.map(nameOf)).toEqual(
      expect.arrayContaining(["better-auth.session_token", "better-auth.session_data", "acme.known_device"]),
    );
    for (const setCookie of setCookies) expect(setCookie).not.toMatch(/^__|; Secure/);
    expect((await get(http, "/account", cookieHeader(setCookies))).status).toBe(200);
    const enter = await get(http, previewLink(PREVIEW_SECRET, { path: "/company", status: "draft" }));
    expect(enter.setCookies.map(nameOf)).toEqual(["site_preview", "site_preview_published"]);
  });
});
