import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { adminWithRole, superAdminToken } from "../support/admin-users.ts";
import { strapiSite } from "../support/strapi-site.ts";

// Issue 30, point 2 (docs/security.md, finding 41), through the real Strapi: an Author uploads
// through the media library's own endpoint (POST /upload, the admin's Bearer token). Every file that
// a browser could run (HTML, SVG, JavaScript, XML, by extension or disguised as an image or text)
// is refused with a 400 an editor can read, and nothing is stored; real media still upload. Whatever
// is in the uploads folder (a file from before the check) is served sandboxed, never sniffed, and
// saved rather than opened unless it is a medium or a PDF, by the CMS and by the site.
const site = strapiSite("cms-upload-active-content");
/** The CMS's image library (sharp, a CMS dependency): for real images to upload. */
interface Image {
  clone(): Image;
  png(): Image;
  jpeg(): Image;
  webp(): Image;
  toBuffer(): Promise<Buffer>;
}
type Sharp = (options: { create: { width: number; height: number; channels: 3; background: string } }) => Image;
const sharp = createRequire(path.resolve("cms/package.json"))("sharp") as Sharp;
let author: string;
let superAdmin: string;

beforeAll(async () => {
  superAdmin = await superAdminToken(site.cms.url);
  author = await adminWithRole(site.cms.url, superAdmin, "strapi-author", "Author");
}, 60_000);

const uploadsDir = () => path.join(`${site.cms.dbFile}.public`, "uploads");
const storedFiles = () => readdirSync(uploadsDir()).sort();

async function fileRows(): Promise<number> {
  const response = await fetch(`${site.cms.url}/upload/files?pageSize=1`, {
    headers: { authorization: `Bearer ${superAdmin}` },
  });
  const body = (await response.json()) as { pagination: { total: number } };
  return body.pagination.total;
}

async function upload(name: string, type: string, bytes: Buffer | string) {
  const form = new FormData();
  form.append("files", new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${site.cms.url}/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${author}` },
    body: form,
  });
  const body = (await response.json()) as any;
  return { status: response.status, body };
}

const SCRIPT =
  "fetch('/admin/access-token',{method:'POST',credentials:'include'}).then(r=>r.json()).then(t=>fetch('/admin/users/me',{headers:{authorization:'Bearer '+t.data.token}}))";
const HTML = `<!doctype html><html><body><script src="/uploads/x_0123.js"></script><script>${SCRIPT}</script></body></html>`;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg"><script>${SCRIPT}</script></svg>`;
const XML = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>${SCRIPT}</script></html>`;

describe("an Author's upload of active content is refused", () => {
  it("HTML, SVG, JavaScript and XML, by extension, by content under another name, with a BOM, in capitals: 400, nothing stored", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#036" } })
      .png()
      .toBuffer();
    const variants: Array<[string, string, Buffer | string]> = [
      ["x.html", "text/html", HTML],
      ["x.htm", "text/html", HTML],
      ["x.svg", "image/svg+xml", SVG],
      ["x.js", "text/javascript", SCRIPT],
      ["x.mjs", "text/javascript", SCRIPT],
      ["x.xml", "application/xml", XML],
      ["x.xhtml", "application/xhtml+xml", XML],
      ["x.png", "image/png", HTML],
      ["x.jpg", "image/jpeg", HTML],
      ["x.txt", "text/plain", HTML],
      ["x.png", "image/png", SVG],
      ["x.png", "image/png", SCRIPT],
      ["x.png", "image/png", `\uFEFF \n\t ${HTML}`],
      ["x.html", "text/html", `\uFEFF\n  ${HTML}`],
      ["X.HTML", "text/html", HTML],
      ["X.SVG", "image/svg+xml", SVG],
      ["x.Js", "application/octet-stream", SCRIPT],
      ["x", "application/octet-stream", HTML],
      ["x.html", "image/png", png],
    ];
    const filesBefore = storedFiles();
    const rowsBefore = await fileRows();
    for (const [name, type, bytes] of variants) {
      const label = `${name} (${type}, ${typeof bytes === "string" ? bytes.slice(0, 12) : "PNG bytes"})`;
      const { status, body } = await upload(name, type, bytes);
      expect(status, label).toBe(400);
      expect(body.error?.name, label).toBe("ValidationError");
      // Strapi's own refusal names the type; ours explains what the library accepts.
      expect(body.error?.message, label).toMatch(/is not allowed|images \(not SVG\), video, audio and PDF/);
    }
    expect(storedFiles()).toEqual(filesBefore);
    expect(await fileRows()).toBe(rowsBefore);
  }, 120_000);

  it("a disguised file's refusal tells the editor what was wrong and what the library takes", async () => {
    const { status, body } = await upload("x.png", "image/png", HTML);
    expect(status).toBe(400);
    expect(body.error.message).toBe(
      "“x.png” was not uploaded: its content is not a recognised image, video, audio or PDF file. " +
        "The media library accepts images (not SVG), video, audio and PDF files only: HTML, SVG, " +
        "JavaScript and XML files could run scripts on the CMS and are refused.",
    );
  });

  it("real media still upload: PNG, JPEG, WebP, PDF, MP4; each served inline, sandboxed, never sniffed", async () => {
    const image = sharp({ create: { width: 16, height: 16, channels: 3, background: "#c30" } });
    const pdf = Buffer.from(
      "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n" +
        "trailer<</Root 1 0 R>>\n%%EOF\n",
    );
    // The smallest MP4 file-type recognises: an `ftyp` box of brand isom.
    const mp4 = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from("ftypisom"),
      Buffer.from([0, 0, 2, 0]),
      Buffer.from("isomiso2"),
    ]);
    const media: Array<[string, string, Buffer]> = [
      ["photo.png", "image/png", await image.clone().png().toBuffer()],
      ["photo.jpg", "image/jpeg", await image.clone().jpeg().toBuffer()],
      ["photo.webp", "image/webp", await image.clone().webp().toBuffer()],
      ["leaflet.pdf", "application/pdf", pdf],
      ["clip.mp4", "video/mp4", mp4],
    ];
    for (const [name, type, bytes] of media) {
      const { status, body } = await upload(name, type, bytes);
      expect(status, `${name}: ${JSON.stringify(body)}`).toBe(201);
      const [file] = body as Array<{ url: string; mime: string }>;
      expect(file!.mime, name).toBe(type);
      const served = await fetch(`${site.cms.url}${file!.url}`);
      expect(served.status, name).toBe(200);
      expect(served.headers.get("content-type"), name).toContain(type);
      expect(served.headers.get("content-security-policy"), name).toMatch(/^default-src 'none';.*; sandbox$/);
      expect(served.headers.get("x-content-type-options"), name).toBe("nosniff");
      expect(served.headers.get("content-disposition"), name).toBeNull();
    }
  }, 120_000);
});

describe("a file already in the uploads folder (from before the check) cannot run", () => {
  it("the CMS serves an HTML or SVG file there sandboxed, as an attachment, whatever the spelling of its path", async () => {
    writeFileSync(path.join(uploadsDir(), "legacy_0123.html"), HTML);
    writeFileSync(path.join(uploadsDir(), "legacy_0123.svg"), SVG);
    expect(existsSync(path.join(uploadsDir(), "legacy_0123.html"))).toBe(true);
    const statuses: Record<string, number> = {};
    for (const address of [
      "/uploads/legacy_0123.html",
      "/UPLOADS/legacy_0123.html",
      "/uploads%2Flegacy_0123.html",
      "/uploads/legacy_0123.svg",
    ]) {
      const served = await fetch(`${site.cms.url}${address}`);
      const body = await served.text();
      statuses[address] = served.status;
      if (served.status === 404) continue;
      expect(served.status, address).toBe(200);
      expect(body, address).toContain("<script>");
      expect(served.headers.get("content-security-policy"), address).toMatch(/; sandbox$/);
      expect(served.headers.get("x-content-type-options"), address).toBe("nosniff");
      expect(served.headers.get("content-disposition"), address).toBe("attachment");
    }
    // An encoded slash reaches the file through Strapi's public-folder route, not the upload
    // route: the headers are there all the same. Capitals find no file (a case-sensitive disk).
    expect(statuses).toEqual({
      "/uploads/legacy_0123.html": 200,
      "/UPLOADS/legacy_0123.html": 404,
      "/uploads%2Flegacy_0123.html": 200,
      "/uploads/legacy_0123.svg": 200,
    });
  });

  it("the site's /uploads copy of it is sandboxed too (its own policy, decision 0017)", async () => {
    const served = await fetch(`${site.app.url}/uploads/legacy_0123.html`);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("<script>");
    // The site's own policy and the media policy, two headers: both apply.
    expect(served.headers.get("content-security-policy")).toMatch(
      /, default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox$/,
    );
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
