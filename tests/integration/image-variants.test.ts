import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { until } from "../support/wait.ts";

// Issue 31 point 3, through the real Strapi and the production site: the seeded image as AVIF
// and WebP variants at declared widths (sharp, on demand), in a <picture> whose first image is
// fetched first; only declared widths, made once for concurrent requests (counted on /metrics),
// never enlarged, the original for what cannot be converted, and new variants (and a new version
// in the markup) once an editor replaces the file in the media library.
const REVALIDATE_SECRET = "image-variants-revalidate-secret-0123456789";
const METRICS = "image-variants-metrics-secret-0123456789";
const dir = mkdtempSync(path.join(tmpdir(), "image-variants-"));
const dbFile = path.join(dir, "cms.db");
let cms: CmsHandle;
let app: AppHandle;
let admin: StrapiAdmin;

beforeAll(async () => {
  const [cmsPort, appPort] = [await getPort(), await getPort()];
  cms = await startCms({
    port: cmsPort,
    dbFile,
    fresh: true,
    env: { CLIENT_URL: `http://127.0.0.1:${appPort}`, CMS_REVALIDATE_SECRET: REVALIDATE_SECRET },
  });
  app = await startApp({
    port: appPort,
    env: {
      CMS_URL: cms.url,
      CMS_REST_READONLY_API_KEY: cms.token,
      CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
      METRICS_SECRET: METRICS,
    },
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

/** The image variant counters on /metrics. */
async function metrics() {
  const text = (await get(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } })).text;
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  return { made: read("image_variants_made_total"), bytes: read("image_variants_cache_bytes") };
}

type Attributes = Record<string, string>;
const attributesOf = (tag: string): Attributes =>
  Object.fromEntries(
    [...tag.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map(([, name, value]) => [name!.toLowerCase(), value!]),
  );

/** Every <picture> of a page: its sources and its img. */
function pictures(html: string) {
  return [...html.matchAll(/<picture>(.*?)<\/picture>/g)].map(([, inner]) => ({
    sources: [...inner!.matchAll(/<source\b[^>]*>/g)].map(([tag]) => attributesOf(tag)),
    img: attributesOf(/<img\b[^>]*>/.exec(inner!)![0]),
  }));
}

const candidates = (srcSet: string) =>
  srcSet.split(", ").map((candidate) => {
    const [url, width] = candidate.split(" ");
    return { url: url!, width: Number(width!.slice(0, -1)) };
  });

/** The seeded article with the seed image as its cover: its address and documentId. */
async function article() {
  const query = "fields[0]=slug&fields[1]=title&populate[cover][fields][0]=url&locale=en";
  const response = await fetch(`${cms.url}/api/articles?${query}`, {
    headers: { authorization: `Bearer ${cms.token}` },
  });
  const { data } = (await response.json()) as {
    data: Array<{ documentId: string; slug: string; title: string; cover: { url: string } | null }>;
  };
  const first = data.find((entry) => entry.cover)!;
  return { ...first, path: `/blog/${first.slug}` };
}

describe("image variants of CMS uploads", () => {
  it("the home page: a <picture> per image, AVIF then WebP at the declared widths up to the original's, the hero first and fetched first, the rest lazy", async () => {
    const page = await get(`${app.url}/`);
    expect(page.status).toBe(200);
    const all = pictures(page.text);
    expect(all.length).toBeGreaterThan(2);
    const [hero, ...rest] = all;
    expect(hero!.sources.map((source) => source.type)).toEqual(["image/avif", "image/webp"]);
    for (const source of hero!.sources) {
      expect(source.sizes).toBe(hero!.img.sizes);
      const listed = candidates(source.srcset!);
      expect(listed.map(({ width }) => width)).toEqual([160, 320, 480, 640, 960, 1200]);
      // Never wider than the original (1200 px): the last candidate is made at its width.
      expect(Math.max(...listed.map(({ width }) => width))).toBe(Number(hero!.img.width));
      for (const { url } of listed)
        expect(url).toMatch(/^\/uploads\/_w\d+\/acme_share_\w+\.png\.(avif|webp)\?v=[0-9a-z]+$/);
    }
    expect(hero!.img).toMatchObject({ fetchpriority: "high", width: "1200", height: "630" });
    expect(hero!.img.loading).not.toBe("lazy");
    for (const other of rest) {
      expect(other.img).toMatchObject({ loading: "lazy", decoding: "async" });
      expect(other.img.fetchpriority).toBeUndefined();
    }
  });

  it("an article: the cover is fetched first, body images after it lazily", async () => {
    const { path: articlePath } = await article();
    const [cover, ...others] = pictures((await get(`${app.url}${articlePath}`)).text);
    expect(cover!.img).toMatchObject({ class: "article-cover", fetchpriority: "high" });
    for (const other of others) expect(other.img.fetchpriority).toBeUndefined();
  });

  it("the AVIF and WebP variants answer with their type, a year's caching when versioned, the sandbox, and fewer bytes than the PNG", async () => {
    const [hero] = pictures((await get(`${app.url}/`)).text);
    const original = await get(`${app.url}${hero!.img.src}`);
    expect(original.headers.get("content-type")).toBe("image/png");
    for (const source of hero!.sources) {
      const { url } = candidates(source.srcset!).find(({ width }) => width === 640)!;
      const served = await get(`${app.url}${url}`);
      expect(served.status, url).toBe(200);
      expect(served.headers.get("content-type"), url).toBe(source.type);
      expect(served.headers.get("cache-control"), url).toBe("public, max-age=31536000, immutable");
      expect(served.headers.get("content-security-policy"), url).toContain("sandbox");
      expect(served.headers.get("x-cache"), url).toBeNull();
      expect(served.body.length, url).toBeLessThan(original.body.length);
      const meta = await sharp(served.body).metadata();
      expect(meta.width, url).toBe(640);
      expect(meta.format, url).toBe(source.type === "image/avif" ? "heif" : "webp");
      // Asked again with its ETag: nothing to send.
      const again = await get(`${app.url}${url}`, { headers: { "if-none-match": served.headers.get("etag")! } });
      expect(again.status, url).toBe(304);
    }
  });

  it("a declared width beyond the original is made at the original's width, never enlarged", async () => {
    const [hero] = pictures((await get(`${app.url}/`)).text);
    const avif = candidates(hero!.sources[0]!.srcset!)[0]!.url.replace("/_w160/", "/_w1920/");
    const served = await get(`${app.url}${avif}`);
    expect(served.status).toBe(200);
    expect((await sharp(served.body).metadata()).width).toBe(1200);
  });

  it("an undeclared width, format or parameter is a 400 that makes nothing and stores nothing", async () => {
    const [hero] = pictures((await get(`${app.url}/`)).text);
    const avif = candidates(hero!.sources[0]!.srcset!)[0]!.url.split("?")[0]!;
    const before = await metrics();
    for (const url of [
      avif.replace("/_w160/", "/_w161/"),
      avif.replace("/_w160/", "/_w10000/"),
      avif.replace(/\.avif$/, ".jxl"),
      `${avif}?w=10`,
      `${avif}?v=NOT-A-VERSION`,
    ]) {
      const answer = await get(`${app.url}${url}`);
      expect(answer.status, url).toBe(400);
      expect(answer.headers.get("cache-control"), url).toBe("no-store");
      expect(answer.text, url).toMatch(/widths only|formats only|one query parameter/);
    }
    expect(await metrics()).toEqual(before);
  });

  it("20 requests at once for a variant nobody asked for yet: it is made once", async () => {
    const [hero] = pictures((await get(`${app.url}/`)).text);
    const url = candidates(hero!.sources[0]!.srcset!).find(({ width }) => width === 480)!.url;
    const before = await metrics();
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(`${app.url}${url}`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body.toString("base64"))).size).toBe(1);
    expect((await metrics()).made).toBe(before.made + 1);
  });

  it("a file sharp cannot read (an old corrupt upload) is served as it is", async () => {
    const bytes = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.from("not really a png")]);
    writeFileSync(`${dbFile}.public/uploads/broken_1a2b3c.png`, bytes);
    const served = await get(`${app.url}/uploads/_w640/broken_1a2b3c.png.avif`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.body.equals(bytes)).toBe(true);
    // Not kept for a year under the variant's address: a replaced file gets another try.
    expect(served.headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("an editor replaces the file in the media library: the same variant address answers the new image at once, and the markup gets a new version after the next publish", async () => {
    const entry = await article();
    const [before] = pictures((await get(`${app.url}${entry.path}`)).text);
    const webp = candidates(before!.sources[1]!.srcset!).find(({ width }) => width === 320)!.url;
    const old = await get(`${app.url}${webp}`);
    expect((await sharp(old.body).metadata()).height).toBe(Math.round((630 * 320) / 1200));

    // Strapi keeps the file's URL (and hash) on a replace: only its bytes, size and updatedAt change.
    const { results } = (await admin.call("GET", "/upload/files?pageSize=100")) as {
      results: Array<{ id: number; url: string }>;
    };
    const file = results.find((candidate) => candidate.url === entry.cover!.url)!;
    const square = await sharp({ create: { width: 800, height: 800, channels: 3, background: "#dc2626" } })
      .png()
      .toBuffer();
    const replaced = await admin.replaceFile(file.id, { bytes: square, name: "acme-share.png", type: "image/png" });
    expect(replaced.url).toBe(file.url);

    const fresh = await get(`${app.url}${webp}`);
    expect(fresh.status).toBe(200);
    const meta = await sharp(fresh.body).metadata();
    expect([meta.width, meta.height]).toEqual([320, 320]);
    expect(fresh.headers.get("etag")).not.toBe(old.headers.get("etag"));

    // The page is rendered again after a publish (or within PAGE_REVALIDATE_SECONDS): new version, new box.
    const base = `/content-manager/collection-types/api::article.article/${entry.documentId}`;
    await admin.call("PUT", `${base}?locale=en`, { title: entry.title });
    await admin.call("POST", `${base}/actions/publish?locale=en`, {});
    const after = await until(
      "the article rendered with the replaced cover",
      async () => pictures((await get(`${app.url}${entry.path}`)).text)[0],
      (cover) => cover?.img.width === "800",
      // The CMS's revalidation call, then a stale answer while the page renders again.
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const version = (url: string) => new URL(url, app.url).searchParams.get("v");
    expect(version(after!.img.src!)).not.toBe(version(before!.img.src!));
    const newWebp = candidates(after!.sources[1]!.srcset!).find(({ width }) => width === 320)!.url;
    expect(newWebp.split("?")[0]).toBe(webp.split("?")[0]);
    expect(newWebp).not.toBe(webp);
    expect(candidates(after!.sources[0]!.srcset!).at(-1)!.width).toBe(800);
  }, 60_000);
});
