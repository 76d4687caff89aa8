import { beforeAll, describe, expect, it } from "vitest";

import { PREVIEW_MAX_AGE_SECONDS, signPreviewCookie } from "../../app/lib/preview/preview-cookie.server.ts";
import { adminCall, adminWithRole, superAdminToken } from "../support/admin-users.ts";
import { previewLink } from "../support/preview-link.ts";
import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Draft preview through the real Strapi (docs/cms-contract.md, "Preview"): the CMS's Preview
// handler builds the site's /api/preview URL, the site checks it, sets its signed cookie and
// shows the draft to that visitor only: never cached, never served from the cache, while
// everybody else keeps getting the published page from the cache. The production build.
const SECRET = "preview-secret-integration-0123456789";
const PAGES = "/content-manager/collection-types/api::page.page";
const ARTICLES = "/content-manager/collection-types/api::article.article";
const CATEGORIES = "/content-manager/collection-types/api::category.category";
const site = strapiSite("preview", {
  cmsEnv: () => ({ CMS_PREVIEW_SECRET: SECRET }),
  appEnv: { CMS_PREVIEW_SECRET: SECRET },
});
let admin: StrapiAdmin;

beforeAll(async () => {
  admin = await StrapiAdmin.login(site.cms.url);
});

async function get(pagePath: string, cookie?: string) {
  const answer = await getPage(site.app.url, pagePath, cookie ? { cookie } : {});
  return { ...answer, header: (name: string) => answer.headers.get(name) };
}

/**
 * The `name=value` part of a preview answer's Set-Cookie, and the whole header: for a link the CMS
 * made (its query, with its signature), or one signed here for a path, locale and status.
 */
async function enterPreview(query: Record<string, string>) {
  const link = query.signature
    ? `/api/preview?${new URLSearchParams(query)}`
    : previewLink(SECRET, query as Record<string, string> & { path: string });
  const answer = await get(link);
  expect(answer.status).toBe(307);
  // The draft cookie first, then the published-view one (app/lib/preview/preview-cookie.server.ts).
  const [setCookie = "", setPublishedView = ""] = answer.response.headers.getSetCookie();
  return { answer, setCookie, setPublishedView, cookie: setCookie.split(";")[0]! };
}

/** What a link the CMS made carries besides path, locale and status: never the secret. */
const signedFor = (type: string, document: string) => ({
  type,
  document,
  expires: expect.stringMatching(/^\d{13}$/),
  signature: expect.stringMatching(/^[\w-]{43}$/),
});

const frameAncestors = (answer: { header: (name: string) => string | null }) =>
  /frame-ancestors ([^;]*)/.exec(answer.header("content-security-policy") ?? "")?.[1];

describe("GET /api/preview: bad input", () => {
  it("an unsigned link, one signed with another secret, or the secret itself is 401 with a message, and sets no cookie", async () => {
    for (const link of [
      `/api/preview?${new URLSearchParams({ path: "/", locale: "en" })}`,
      previewLink("wrong-secret-0123456789", { path: "/" }),
      `/api/preview?${new URLSearchParams({ secret: SECRET, path: "/", locale: "en" })}`,
    ]) {
      const answer = await get(link);
      expect(answer.status, link).toBe(401);
      expect(answer.text).toMatch(/preview link.*Open the preview again from the CMS/is);
      expect(answer.header("set-cookie")).toBeNull();
      expect(answer.header("location")).toBeNull();
      expect(answer.header("cache-control")).toBe("private, no-store");
    }
  });

  it("a path that is not a site path is 400; a locale the site does not serve is 404", async () => {
    for (const bad of ["https://evil.example/x", "//evil.example", "/a/../b", "/api/cms-revalidate"]) {
      const answer = await get(previewLink(SECRET, { path: bad }));
      expect(answer.status, bad).toBe(400);
      expect(answer.text).toMatch(/path must be/);
      expect(answer.header("location")).toBeNull();
    }
    const french = await get(previewLink(SECRET, { path: "/", locale: "fr" }));
    expect(french.status).toBe(404);
    expect(french.text).toMatch(/no locale "fr".*en, de/);
    expect(french.header("set-cookie")).toBeNull();
  });
});

describe("preview of a draft", () => {
  it("shows the draft to the previewer only: never stored, never served from the cache; others get the published page", async () => {
    const slug = `preview-${Date.now().toString(36)}`;
    await admin.pageWithDraft(slug, "Published words", "Draft words");

    // A normal visitor: the published page, then from the cache.
    expect((await get(`/${slug}`)).text).toContain("Published words");
    await until(
      "the published page to be a HIT",
      () => get(`/${slug}`),
      (answer) => answer.cache === "HIT",
    );

    const { answer: entered, setCookie, cookie } = await enterPreview({ path: `/${slug}`, locale: "en" });
    expect(entered.header("location")).toBe(`/${slug}`);
    // The signed value of app/lib/signed-value.server.ts: the page's address (base64url JSON), expiry, HMAC.
    expect(setCookie).toMatch(
      /^site_preview=[\w-]+\.[0-9a-z]+\.[\w-]{43}; Max-Age=1800; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(entered.header("cache-control")).toBe("private, no-store");
    expect(frameAncestors(entered)).toBe(`'self' ${site.cms.url}`);

    // The previewer and a normal visitor at the same time.
    const [preview, other] = await Promise.all([get(`/${slug}`, cookie), get(`/${slug}`)]);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("Draft words");
    expect(preview.text).not.toContain("Published words");
    expect(preview.text).toContain("Preview: draft");
    expect(preview.text).toContain(`href="/api/preview/exit?path=%2F${slug}"`);
    expect(preview.cache).toBe("BYPASS");
    expect(preview.header("cache-control")).toBe("private, no-store");
    expect(preview.header("cdn-cache-control")).toBe("no-store");
    expect(preview.header("surrogate-control")).toBe("no-store");
    // The CMS admin's iframe may show it; X-Frame-Options would forbid that.
    expect(frameAncestors(preview)).toBe(`'self' ${site.cms.url}`);
    expect(preview.header("x-frame-options")).toBeNull();
    // No token in what the browser gets.
    expect(preview.text).not.toContain(site.cms.token);

    expect(other).toMatchObject({ status: 200, cache: "HIT" });
    expect(other.text).toContain("Published words");
    expect(other.text).not.toContain("Preview: draft");
    expect(frameAncestors(other)).toBe("'self'");
    expect(other.header("x-frame-options")).toBe("SAMEORIGIN");

    // Client-side navigation (.data) in preview: the draft too, not the cached data.
    const data = await get(`/${slug}.data`, cookie);
    expect(data.text).toContain("Draft words");
    expect(data.cache).toBe("BYPASS");

    // Afterwards the cache still holds, and serves, the published page.
    const after = await get(`/${slug}`);
    expect(after).toMatchObject({ status: 200, cache: "HIT" });
    expect(after.text).toContain("Published words");
    expect(after.text).not.toContain("Draft words");
  }, 60_000);

  it("a page that was never published: previewable, a 404 for everybody else", async () => {
    const slug = `preview-new-${Date.now().toString(36)}`;
    await admin.call("POST", `${PAGES}?locale=en`, { title: "Not yet published", slug });
    const { cookie } = await enterPreview({ path: `/${slug}`, locale: "en", status: "draft" });
    expect((await get(`/${slug}`, cookie)).text).toContain("Not yet published");
    expect((await get(`/${slug}`)).status).toBe(404);
  }, 30_000);

  it("another locale: the URL the CMS's Preview handler makes leads to the German draft", async () => {
    const documentId = await admin.pageDocumentId("/company", "en");
    await admin.call("PUT", `${PAGES}/${documentId}?locale=de`, { title: "Unternehmen (Entwurf)" });
    const query = new URLSearchParams({ documentId, locale: "de", status: "draft" });
    const { data } = (await admin.call("GET", `/content-manager/preview/url/api::page.page?${query}`)) as {
      data: { url: string };
    };
    const url = new URL(data.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${site.app.url}/api/preview`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      path: "/company",
      locale: "de",
      status: "draft",
      ...signedFor("api::page.page", documentId),
    });

    const { answer, cookie } = await enterPreview(Object.fromEntries(url.searchParams));
    expect(answer.header("location")).toBe("/de/company");
    const preview = await get("/de/company", cookie);
    expect(preview.text).toContain("Unternehmen (Entwurf)");
    expect(preview.text).toContain("Preview: draft");
    expect((await get("/de/company")).text).not.toContain("Unternehmen (Entwurf)");
  }, 30_000);

  it("single types: the navbar previews on its locale's home page, published (it has no drafts)", async () => {
    const { data } = (await admin.call("GET", "/content-manager/preview/url/api::navbar.navbar?locale=de")) as {
      data: { url: string };
    };
    const url = new URL(data.url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ path: "/", locale: "de", status: "published" });
    const { answer, setCookie, setPublishedView } = await enterPreview(Object.fromEntries(url.searchParams));
    expect(answer.header("location")).toBe("/de");
    expect(setCookie).toMatch(/^site_preview=; Max-Age=0;/);
    expect(setPublishedView).toMatch(/^site_preview_published=1; Max-Age=1800;/);
  }, 30_000);
});

/** The URL the CMS's Preview handler makes for a document (what the admin's Preview button opens), or null. */
async function cmsPreviewUrl(uid: string, query: Record<string, string>): Promise<URL | null> {
  const answer = (await admin.call("GET", `/content-manager/preview/url/${uid}?${new URLSearchParams(query)}`)) as {
    data?: { url?: string | null } | null;
  } | null;
  return answer?.data?.url ? new URL(answer.data.url) : null;
}

describe("preview of an article, a category; none for a redirect", () => {
  it("an article's draft: the CMS's URL (its path from the site-cache declaration) leads to the draft, for the previewer only", async () => {
    const slug = `preview-article-${Date.now().toString(36)}`;
    const { data } = (await admin.call("POST", `${ARTICLES}?locale=en`, {
      title: "Published article words",
      slug,
      body: [{ type: "paragraph", children: [{ type: "text", text: "Published body" }] }],
    })) as { data: { documentId: string } };
    await admin.call("POST", `${ARTICLES}/${data.documentId}/actions/publish?locale=en`, {});
    await admin.call("PUT", `${ARTICLES}/${data.documentId}?locale=en`, {
      title: "Draft article words",
      body: [{ type: "paragraph", children: [{ type: "text", text: "Draft body" }] }],
    });
    // Cached for everybody first.
    await until(
      "the published article to be a HIT",
      () => get(`/blog/${slug}`),
      (answer) => answer.cache === "HIT" && answer.text.includes("Published article words"),
    );

    const url = await cmsPreviewUrl("api::article.article", {
      documentId: data.documentId,
      locale: "en",
      status: "draft",
    });
    expect(url && `${url.origin}${url.pathname}`).toBe(`${site.app.url}/api/preview`);
    expect(Object.fromEntries(url!.searchParams)).toEqual({
      path: `/blog/${slug}`,
      locale: "en",
      status: "draft",
      ...signedFor("api::article.article", data.documentId),
    });
    const { answer, cookie } = await enterPreview(Object.fromEntries(url!.searchParams));
    expect(answer.header("location")).toBe(`/blog/${slug}`);

    const [preview, other] = await Promise.all([get(`/blog/${slug}`, cookie), get(`/blog/${slug}`)]);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("Draft article words");
    expect(preview.text).toContain("Draft body");
    expect(preview.text).not.toContain("Published article words");
    expect(preview.text).toContain("Preview: draft");
    expect(preview.text).toContain(`href="/api/preview/exit?path=%2Fblog%2F${slug}"`);
    expect(preview.cache).toBe("BYPASS");
    expect(preview.header("cache-control")).toBe("private, no-store");
    expect(preview.header("cdn-cache-control")).toBe("no-store");
    expect(frameAncestors(preview)).toBe(`'self' ${site.cms.url}`);
    expect(preview.text).not.toContain(site.cms.token);
    expect(other).toMatchObject({ status: 200, cache: "HIT" });
    expect(other.text).toContain("Published article words");
    expect(other.text).not.toContain("Preview: draft");

    // The Published tab: the published article, no preview bar.
    const published = await cmsPreviewUrl("api::article.article", {
      documentId: data.documentId,
      locale: "en",
      status: "published",
    });
    expect(published?.searchParams.get("status")).toBe("published");
    expect(published?.searchParams.get("path")).toBe(`/blog/${slug}`);
  }, 60_000);

  it("an article never published: previewable at its draft's slug, a 404 for everybody else (never stored)", async () => {
    const slug = `preview-new-article-${Date.now().toString(36)}`;
    const { data } = (await admin.call("POST", `${ARTICLES}?locale=en`, { title: "Unpublished article", slug })) as {
      data: { documentId: string };
    };
    const url = await cmsPreviewUrl("api::article.article", {
      documentId: data.documentId,
      locale: "en",
      status: "draft",
    });
    expect(url?.searchParams.get("path")).toBe(`/blog/${slug}`);
    const { cookie } = await enterPreview(Object.fromEntries(url!.searchParams));
    const preview = await get(`/blog/${slug}`, cookie);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("Unpublished article");
    expect((await get(`/blog/${slug}`)).status).toBe(404);
    // A 404 in preview (a link for an address with no entry) is no-store as well.
    const { cookie: missingCookie } = await enterPreview({ path: `/blog/no-such-${slug}`, locale: "en" });
    const missing = await get(`/blog/no-such-${slug}`, missingCookie);
    expect(missing.status).toBe(404);
    expect(missing.header("cache-control")).toBe("private, no-store");
  }, 30_000);

  it("a category (no drafts): its page, published, in its locale; a redirect has no Preview button", async () => {
    const slug = `preview-category-${Date.now().toString(36)}`;
    const { data } = (await admin.call("POST", `${CATEGORIES}?locale=en`, { name: "Preview category", slug })) as {
      data: { documentId: string };
    };
    await admin.call("PUT", `${CATEGORIES}/${data.documentId}?locale=de`, {
      name: "Vorschau-Kategorie",
      slug: `de-${slug}`,
    });
    const url = await cmsPreviewUrl("api::category.category", { documentId: data.documentId, locale: "de" });
    expect(Object.fromEntries(url!.searchParams)).toMatchObject({
      path: `/blog/category/de-${slug}`,
      locale: "de",
      status: "published",
    });
    const { answer, setPublishedView } = await enterPreview(Object.fromEntries(url!.searchParams));
    expect(answer.header("location")).toBe(`/de/blog/category/de-${slug}`);
    const page = await get(`/de/blog/category/de-${slug}`, setPublishedView.split(";")[0]);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Vorschau-Kategorie");
    expect(frameAncestors(page)).toBe(`'self' ${site.cms.url}`);

    const redirect = (await admin.call("POST", "/content-manager/collection-types/api::redirect.redirect", {
      source: `/en/old-${slug}`,
      destination: "/company",
    })) as { data: { documentId: string } };
    expect(
      await cmsPreviewUrl("api::redirect.redirect", { documentId: redirect.data.documentId, status: "draft" }),
    ).toBeNull();
  }, 30_000);
});

describe("preview links are signed, not the secret (issue 30, point 5; docs/security.md, finding 42)", () => {
  /** The URL an admin with this token gets from the CMS's Preview handler, as the admin panel asks. */
  async function previewUrlAs(token: string, uid: string, query: Record<string, string>) {
    const response = await fetch(`${site.cms.url}/content-manager/preview/url/${uid}?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    return new URL(((await response.json()) as { data: { url: string } }).data.url);
  }

  let author: Promise<string> | undefined;
  /** One Author for the tests below (its invitation email is unique per CMS). */
  const authorToken = () =>
    (author ??= superAdminToken(site.cms.url).then((token) =>
      adminWithRole(site.cms.url, token, "strapi-author", "Author"),
    ));

  it("an admin who may read the draft gets a preview URL through the real Strapi: no secret in it, a signature for that document that expires within minutes", async () => {
    const token = await superAdminToken(site.cms.url);
    const slug = `preview-reader-${Date.now().toString(36)}`;
    const documentId = await admin.pageWithDraft(slug, "Reader published", "Reader draft");
    const before = Date.now();
    const url = await previewUrlAs(token, "api::page.page", { documentId, locale: "en", status: "draft" });
    expect(url.href).not.toContain(SECRET);
    expect(url.href).not.toContain(encodeURIComponent(SECRET));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      path: `/${slug}`,
      locale: "en",
      status: "draft",
      ...signedFor("api::page.page", documentId),
    });
    const expires = Number(url.searchParams.get("expires"));
    expect(expires).toBeGreaterThan(before);
    expect(expires).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
    // It opens that page's preview, as the admin's iframe does.
    const { answer } = await enterPreview(Object.fromEntries(url.searchParams));
    expect(answer.header("location")).toBe(`/${slug}`);
  }, 60_000);

  it("an Author asking for the preview URL of another admin's draft (or a seeded page) gets 403 and no link", async () => {
    const token = await authorToken();
    const slug = `preview-others-${Date.now().toString(36)}`;
    const others = await admin.pageWithDraft(slug, "Their published", "Their draft");
    const seeded = await admin.pageDocumentId("/company", "en");
    for (const [documentId, status] of [
      [others, "draft"],
      [others, "published"],
      [seeded, "draft"],
    ] as const) {
      const query = new URLSearchParams({ documentId, locale: "en", status });
      const refused = await adminCall(site.cms.url, "GET", `/content-manager/preview/url/api::page.page?${query}`, {
        token,
      });
      expect(refused.status, `${documentId} ${status}`).toBe(403);
      expect(JSON.stringify(refused.body)).toMatch(/You may not preview this document/);
      expect(JSON.stringify(refused.body)).not.toMatch(/signature|api\/preview/);
    }
    // The Super Admin (who may read it) still gets the link.
    expect(await cmsPreviewUrl("api::page.page", { documentId: others, locale: "en", status: "draft" })).not.toBeNull();
  }, 60_000);

  it("a link for document A cannot open document B: another path, document, locale or status is 401, no cookie", async () => {
    const slugA = `preview-a-${Date.now().toString(36)}`;
    const slugB = `preview-b-${Date.now().toString(36)}`;
    const a = await admin.pageWithDraft(slugA, "A published", "A draft");
    const b = await admin.pageWithDraft(slugB, "B published", "B draft");
    const linkA = (await cmsPreviewUrl("api::page.page", { documentId: a, locale: "en", status: "draft" }))!;
    const linkB = (await cmsPreviewUrl("api::page.page", { documentId: b, locale: "en", status: "draft" }))!;
    const tampered = (changes: Record<string, string>) => {
      const query = new URLSearchParams(linkA.searchParams);
      for (const [name, value] of Object.entries(changes)) query.set(name, value);
      return `/api/preview?${query}`;
    };
    for (const link of [
      tampered({ path: `/${slugB}` }),
      tampered({ path: `/${slugB}`, document: b }),
      tampered({ path: `/${slugB}`, document: b, expires: linkB.searchParams.get("expires")! }),
      tampered({ locale: "de" }),
      tampered({ status: "published" }),
      tampered({ expires: String(Number(linkA.searchParams.get("expires")) + 60 * 60_000) }),
    ]) {
      const answer = await get(link);
      expect(answer.status, link).toBe(401);
      expect(answer.text).toMatch(/This preview link was changed or was not made by this site's CMS/);
      expect(answer.header("set-cookie"), link).toBeNull();
      expect(answer.header("location"), link).toBeNull();
    }
    // Each link opens its own page.
    const { cookie } = await enterPreview(Object.fromEntries(linkB.searchParams));
    expect((await get(`/${slugB}`, cookie)).text).toContain("B draft");
  }, 60_000);

  it("an expired link is refused (410) with what to do, and sets no cookie", async () => {
    const answer = await get(previewLink(SECRET, { path: "/company" }, Date.now() - 1));
    expect(answer.status).toBe(410);
    expect(answer.text).toMatch(/This preview link has expired\. Open the preview again from the CMS/);
    expect(answer.header("set-cookie")).toBeNull();
    expect(answer.header("location")).toBeNull();
    expect(answer.header("cache-control")).toBe("private, no-store");
  });
});

describe("a preview cookie opens the draft of the page it was signed for, nothing else (docs/security.md, finding 42)", () => {
  it("a link for page A shows A's draft (and its .data); with that cookie page B, which has a draft, is B's published version", async () => {
    const slugA = `preview-scope-a-${Date.now().toString(36)}`;
    const slugB = `preview-scope-b-${Date.now().toString(36)}`;
    const a = await admin.pageWithDraft(slugA, "A published words", "A draft words");
    await admin.pageWithDraft(slugB, "B published words", "B draft words");
    const linkA = (await cmsPreviewUrl("api::page.page", { documentId: a, locale: "en", status: "draft" }))!;
    const { cookie } = await enterPreview(Object.fromEntries(linkA.searchParams));

    const pageA = await get(`/${slugA}`, cookie);
    expect(pageA.text).toContain("A draft words");
    expect(pageA.text).toContain("Preview: draft");
    expect((await get(`/${slugA}.data`, cookie)).text).toContain("A draft words");

    for (const other of [`/${slugB}`, `/${slugB}.data`]) {
      const pageB = await get(other, cookie);
      expect(pageB.status, other).toBe(200);
      expect(pageB.text, other).toContain("B published words");
      expect(pageB.text, other).not.toContain("B draft words");
      expect(pageB.text, other).not.toContain("Preview: draft");
      // Never stored either: a request with a preview cookie bypasses the page cache.
      expect(pageB.cache, other).toBe("BYPASS");
    }
  }, 60_000);

  it("the cookie lasts half an hour: its signed expiry is then, and a cookie past it shows the published page", async () => {
    const slug = `preview-expiry-${Date.now().toString(36)}`;
    await admin.pageWithDraft(slug, "Expiry published", "Expiry draft");
    const before = Date.now();
    const { setCookie, cookie } = await enterPreview({ path: `/${slug}`, locale: "en" });
    expect(setCookie).toMatch(/; Max-Age=1800;/);
    const signedExpiry = Number.parseInt(cookie.split(".")[1]!, 36);
    expect(signedExpiry).toBeGreaterThanOrEqual(before + PREVIEW_MAX_AGE_SECONDS * 1000);
    expect(signedExpiry).toBeLessThanOrEqual(Date.now() + PREVIEW_MAX_AGE_SECONDS * 1000);
    expect((await get(`/${slug}`, cookie)).text).toContain("Expiry draft");
    // The same cookie as signed half an hour and a millisecond ago: expired.
    const scope = { path: `/${slug}`, type: "api::page.page", document: "" };
    const expired = `site_preview=${signPreviewCookie(SECRET, scope, Date.now() - PREVIEW_MAX_AGE_SECONDS * 1000 - 1)}`;
    const page = await get(`/${slug}`, expired);
    expect(page.text).toContain("Expiry published");
    expect(page.text).not.toContain("Expiry draft");
  }, 60_000);
});

describe("leaving the preview", () => {
  it("status=published through the same route clears the cookie; so does /api/preview/exit", async () => {
    const leave = await enterPreview({ path: "/company", locale: "en", status: "published" });
    expect(leave.answer.header("location")).toBe("/company");
    expect(leave.setCookie).toMatch(
      /^site_preview=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly/,
    );
    // The admin's Published tab shows the page in its iframe: the published page, framable by it.
    const published = await get("/company", leave.setPublishedView.split(";")[0]);
    expect(published.text).not.toContain("Preview: draft");
    expect(published.cache).toBe("BYPASS");
    expect(frameAncestors(published)).toBe(`'self' ${site.cms.url}`);

    const exit = await get("/api/preview/exit?path=%2Fde%2Fcompany", "site_preview=x");
    expect(exit.status).toBe(303);
    expect(exit.header("location")).toBe("/de/company");
    const [clearDraft, clearPublishedView] = exit.response.headers.getSetCookie();
    expect(clearDraft).toMatch(/^site_preview=; Max-Age=0;/);
    expect(clearPublishedView).toMatch(/^site_preview_published=; Max-Age=0;/);
    expect((await get("/api/preview/exit?path=https%3A%2F%2Fevil.example")).header("location")).toBe("/");
  });
});

describe("a cookie the site did not sign", () => {
  it("forged, expired or signed with another secret: the published page, no preview bar", async () => {
    const slug = `preview-forged-${Date.now().toString(36)}`;
    await admin.pageWithDraft(slug, "Published only", "Secret draft");
    const scope = { path: `/${slug}`, type: "api::page.page", document: "" };
    const future = (Date.now() + 600_000).toString(36);
    for (const cookie of [
      `site_preview=ZHJhZnQ.${future}.${"A".repeat(43)}`,
      // The format before the signed-value helper: a preview opened before the upgrade is reopened.
      `site_preview=v1.${Math.floor(Date.now() / 1000) + 600}.${"A".repeat(43)}`,
      `site_preview=${signPreviewCookie("another-secret-0123456789", scope)}`,
      `site_preview=${signPreviewCookie(SECRET, scope, Date.now() - PREVIEW_MAX_AGE_SECONDS * 1000 - 1)}`,
      "site_preview=1",
    ]) {
      const answer = await get(`/${slug}`, cookie);
      expect(answer.status, cookie).toBe(200);
      expect(answer.text).toContain("Published only");
      expect(answer.text).not.toContain("Secret draft");
      expect(answer.text).not.toContain("Preview: draft");
      // Still never stored: whatever the cookie holds, a request with one bypasses the cache.
      expect(answer.cache).toBe("BYPASS");
    }
  }, 30_000);
});

// Live preview of a save in the edit view (docs/live-preview.md): the page in preview polls the
// draft's version. Only the preview cookie of that very address is answered.
describe("GET /api/preview/version", () => {
  const version = (pagePath: string, cookie?: string) =>
    get(`/api/preview/version?${new URLSearchParams({ path: pagePath })}`, cookie);

  it("answers the draft's version to the cookie opened for that address, moved by a save; never stored", async () => {
    const slug = `preview-version-${Date.now().toString(36)}`;
    const documentId = await admin.pageWithDraft(slug, "Version published", "Version draft");
    const link = (await cmsPreviewUrl("api::page.page", { documentId, locale: "en", status: "draft" }))!;
    const { cookie } = await enterPreview(Object.fromEntries(link.searchParams));

    const before = await version(`/${slug}`, cookie);
    expect(before.status).toBe(200);
    expect(before.header("cache-control")).toBe("private, no-store");
    const { version: first } = JSON.parse(before.text) as { version: string };
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT/);

    await admin.call("PUT", `${PAGES}/${documentId}?locale=en`, { title: "Version draft, saved again" });
    const after = JSON.parse((await version(`/${slug}`, cookie)).text) as { version: string };
    expect(after.version).not.toBe(first);
    expect(after.version > first).toBe(true);
  }, 60_000);

  it("refuses (403, nothing of the draft) without the cookie, with a forged one, or for another address", async () => {
    const slugA = `preview-version-a-${Date.now().toString(36)}`;
    const slugB = `preview-version-b-${Date.now().toString(36)}`;
    const a = await admin.pageWithDraft(slugA, "A published", "A draft");
    await admin.pageWithDraft(slugB, "B published", "B draft");
    const link = (await cmsPreviewUrl("api::page.page", { documentId: a, locale: "en", status: "draft" }))!;
    const { cookie } = await enterPreview(Object.fromEntries(link.searchParams));
    const [name] = cookie.split("=");
    const forged = `${name}=${signPreviewCookie("another-secret-0123456789", { path: `/${slugA}`, type: "api::page.page", document: a })}`;

    for (const [pagePath, sent] of [
      [`/${slugA}`, undefined],
      [`/${slugA}`, forged],
      [`/${slugB}`, cookie],
      [`/de/${slugA}`, cookie],
    ] as const) {
      const answer = await version(pagePath, sent);
      expect(answer.status, `${pagePath} ${sent ?? "no cookie"}`).toBe(403);
      expect(answer.text).toMatch(/not in preview.*open the preview again/is);
      expect(answer.text).not.toMatch(/version/);
      expect(answer.header("cache-control")).toBe("private, no-store");
    }
    expect((await get("/api/preview/version", cookie)).status).toBe(400);
  }, 60_000);
});
