import { describe, expect, it } from "vitest";

import { postAuthForm } from "../support/auth-form.ts";
import { registerCmsUser } from "../support/cms-users.ts";
import { getPage } from "../support/site-requests.ts";
import { strapiSite } from "../support/strapi-site.ts";

// Issue 14, point 4, through the real Strapi (the seeded demo site: /company has a German
// translation, /positions has none) and the production site: auth pages under the locale prefix
// with <html lang> and the site's German words, a prefix that is no locale is a 404, the
// header's locale switcher leads to the translation or to the locale's home page, prefixed
// auth pages are never stored, and a failed German sign-in answers in German.
const site = strapiSite("locales", { sharedCms: true });

/** The header's locale switcher: each link's href, hreflang, lang and aria-current. */
function switcherLinks(html: string) {
  const nav = /<nav[^>]*class="locale-switcher"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  return [...nav.matchAll(/<a\b([^>]*)>([^<]*)<\/a>/g)].map(([, attributes, text]) => {
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attributes!)?.[1];
    return {
      text,
      href: attribute("href"),
      hrefLang: attribute("hrefLang") ?? attribute("hreflang"),
      lang: attribute("lang"),
      current: attribute("aria-current"),
    };
  });
}

const htmlLang = (html: string) => /<html[^>]*\blang="([^"]*)"/.exec(html)?.[1];

async function postForm(path: string, fields: Record<string, string>) {
  const response = await postAuthForm(site.app.url, path, fields);
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

describe("auth pages under the locale prefix", () => {
  it('/de/sign-in answers 200 in German, with <html lang="de"> and German links between auth pages', async () => {
    const page = await getPage(site.app.url, "/de/sign-in");
    expect(page.status).toBe(200);
    expect(htmlLang(page.text)).toBe("de");
    expect(page.text).toContain("<title>Anmelden | Acme</title>");
    expect(page.text).toMatch(/<label for="email">E-Mail<\/label>/);
    expect(page.text).toMatch(/<label for="password">Passwort<\/label>/);
    expect(page.text).toContain('href="/de/forgot-password"');
    expect(page.text).toContain('href="/de/register"');
    // The chrome is German too: the German navbar, the skip link.
    expect(page.text).toContain(">Zum Inhalt springen</a>");
    expect(page.text).toContain(">Unternehmen</a>");
  });

  it("every auth page has its German spelling; the English one stays as it was", async () => {
    for (const [path, title] of [
      ["/de/register", "Konto anlegen"],
      ["/de/forgot-password", "Passwort vergessen?"],
      ["/de/reset-password?code=x", "Neues Passwort wählen"],
      ["/de/sign-out", "Abmelden"],
    ]) {
      const page = await getPage(site.app.url, path!);
      expect(page.status, path).toBe(200);
      expect(htmlLang(page.text), path).toBe("de");
      expect(page.text, path).toContain(`<title>${title} | Acme</title>`);
    }
    const english = await getPage(site.app.url, "/sign-in");
    expect(english.status).toBe(200);
    expect(htmlLang(english.text)).toBe("en");
    expect(english.text).toContain("<title>Sign in | Acme</title>");
    // The default locale's prefix is accepted as pages accept it (`/en/company`).
    expect((await getPage(site.app.url, "/en/sign-in")).status).toBe(200);
    // Signed out, the account page sends to the sign-in page of its locale, and back afterwards.
    const account = await getPage(site.app.url, "/de/account");
    expect(account.status).toBe(302);
    expect(account.location).toBe(`/de/sign-in?redirectTo=${encodeURIComponent("/de/account")}`);
  });

  it("answers 404 for a prefix that is not a configured locale, on GET and POST", async () => {
    for (const path of ["/xx/sign-in", "/fr/register", "/company/account"]) {
      const page = await getPage(site.app.url, path);
      expect(page.status, path).toBe(404);
      expect(page.headers.get("x-cache"), path).toBeNull();
    }
    expect((await postForm("/xx/sign-in", { email: "a@example.com", password: "whatever-123" })).status).toBe(404);
  });

  it("never stores a prefixed auth page in the page cache", async () => {
    for (const path of ["/de/sign-in", "/de/register", "/en/sign-in", "/confirm-email", "/de/confirm-email"]) {
      for (let round = 0; round < 2; round++) {
        const page = await getPage(site.app.url, path);
        expect(page.status, path).toBe(200);
        // Not even looked up: the cache's middleware answers MISS, HIT, STALE or BYPASS.
        expect(page.headers.get("x-cache"), `${path} #${round + 1}`).toBeNull();
        expect(page.headers.get("cache-control") ?? "", path).not.toMatch(/public|s-maxage/);
      }
    }
    // A CMS page in the same locale is stored, so the cache is on in this site.
    await getPage(site.app.url, "/de/company");
    expect((await getPage(site.app.url, "/de/company")).cache).toBe("HIT");
  });

  it("/de/register says what is wrong with a field in German, /register in English", async () => {
    const fields = { email: "not-an-address", password: "short", passwordConfirmation: "short" };
    const german = await postForm("/de/register", fields);
    expect(german.status).toBe(400);
    expect(german.text).toContain("Bitte korrigieren Sie die markierten Felder.");
    expect(german.text).toContain("Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.com.");
    expect(german.text).toContain("Verwenden Sie mindestens 8 Zeichen.");
    expect(german.text).not.toContain("Use at least 8 characters.");
    const english = await postForm("/register", fields);
    expect(english.text).toContain("Enter a valid email address, like name@example.com.");
    expect(english.text).toContain("Use at least 8 characters.");
  });

  it("a failed German sign-in answers in German; a successful one lands on a German page", async () => {
    const failed = await postForm("/de/sign-in", { email: "nobody@example.com", password: "not-the-password-1" });
    expect(failed.status).toBe(401);
    expect(htmlLang(failed.text)).toBe("de");
    expect(failed.text).toContain("E-Mail-Adresse oder Passwort ist falsch.");
    const english = await postForm("/sign-in", { email: "nobody@example.com", password: "not-the-password-1" });
    expect(english.status).toBe(401);
    expect(english.text).toContain("Wrong email or password.");

    const email = `locale-${Date.now()}@example.com`;
    const password = "locale-password-123";
    await registerCmsUser(site.cms.url, email, password);
    const signedIn = await postForm("/de/sign-in", { email, password });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/de/account");
  });
});

describe("the locale switcher", () => {
  it("on a translated page leads to its translation, each link in its own language", async () => {
    const page = await getPage(site.app.url, "/company");
    expect(page.status).toBe(200);
    expect(switcherLinks(page.text)).toEqual([
      { text: "English", href: "/company", hrefLang: "en", lang: "en", current: "true" },
      { text: "Deutsch", href: "/de/company", hrefLang: "de", lang: "de", current: undefined },
    ]);
    const german = await getPage(site.app.url, "/de/company");
    expect(switcherLinks(german.text).map(({ href, current }) => [href, current])).toEqual([
      ["/company", undefined],
      ["/de/company", "true"],
    ]);
  });

  it("on a page without a translation leads to the locale's home page", async () => {
    const page = await getPage(site.app.url, "/positions");
    expect(page.status).toBe(200);
    expect(switcherLinks(page.text).map(({ href }) => href)).toEqual(["/positions", "/de"]);
  });

  it("on an auth page leads to the same auth page in the other locale", async () => {
    const page = await getPage(site.app.url, "/de/forgot-password");
    expect(switcherLinks(page.text).map(({ href }) => href)).toEqual(["/forgot-password", "/de/forgot-password"]);
  });

  it("on a page opened from a mail's link keeps the link's query, so the page still works in the other language", async () => {
    const page = await getPage(site.app.url, "/reset-password?code=a1b2c3");
    expect(page.status).toBe(200);
    expect(switcherLinks(page.text).map(({ href }) => href)).toEqual([
      "/reset-password?code=a1b2c3",
      "/de/reset-password?code=a1b2c3",
    ]);
  });

  it("leaves the hreflang alternates of the page's head as they were", async () => {
    const page = await getPage(site.app.url, "/company");
    expect(page.text).toMatch(/<link rel="alternate" hrefLang="de" href="[^"]*\/de\/company"\/?>/i);
  });
});
