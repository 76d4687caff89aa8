import { listingPagePath } from "../blog/paths.ts";
import type { LocaleConfig } from "../locale-path.ts";
import { canonicalPageUrl } from "./site-url.ts";

/**
 * The XML of the sitemap (sitemaps.org protocol 0.9): one `<url>` per published page and locale
 * the site serves, with its canonical URL and `lastmod`, written as a stream of chunks. A site
 * with more URLs than one file may hold gets a sitemap index (`/sitemap.xml`) and part files
 * (`/sitemap/1.xml`, …), each a slice of the same sequence: planSitemap cuts it, sitemapStream
 * writes one slice, sitemapIndex the index. See docs/decisions/0012-seo-head-and-sitemap.md.
 */

/** What one sitemap entry needs of a page (listPublishedPages gives it). */
export interface SitemapPage {
  fullPath: string;
  locale: string;
  updatedAt?: string | null;
  /** A listing's page past the first (the blog's): its URL is the listing's with `?page=N`. */
  page?: number;
}

/** A protocol limit: one sitemap file lists at most 50,000 URLs (an index, 50,000 files). */
export const SITEMAP_MAX_URLS = 50_000;
/** A protocol limit: one sitemap file is at most 50 MiB (52,428,800 bytes) uncompressed. */
export const SITEMAP_MAX_BYTES = 52_428_800;

/** How many URLs and bytes one file may hold; the protocol's limits unless told (tests, SITEMAP_MAX_URLS). */
export interface SitemapLimits {
  maxUrls?: number;
  maxBytes?: number;
}

/** One file of the sitemap: `count` URLs from the `first` (0-based) of the sequence, and their newest lastmod. */
export interface SitemapPart {
  first: number;
  count: number;
  lastmod: string | null;
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text made safe for XML content and attribute values; characters XML 1.0 forbids are dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/[&<>"']/g, (character) => XML_ESCAPES[character]!);
}

/** A W3C datetime for `lastmod`, or null when Strapi's value is missing or not a date. */
export function lastmodOf(updatedAt: string | null | undefined): string | null {
  if (!updatedAt) return null;
  const time = Date.parse(updatedAt);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
export const SITEMAP_HEAD = `${XML_DECLARATION}<urlset ${NAMESPACE}>\n`;
export const SITEMAP_TAIL = "</urlset>\n";

/**
 * The longest `<loc>` a sitemap lists, in bytes as written (escaped, UTF-8): the protocol refuses URLs
 * of 2,048 characters or more. It also bounds an entry's size, so how many files a number of URLs
 * can need is known without listing them (sitemapPartsBound).
 */
export const SITEMAP_MAX_LOC_BYTES = 2_047;
/** The largest `<url>` entry: the longest loc, the longest lastmod (an ISO date with a six-digit year). */
const MAX_ENTRY_BYTES =
  "<url><loc></loc><lastmod>+275760-09-13T00:00:00.000Z</lastmod></url>\n".length + SITEMAP_MAX_LOC_BYTES;

const encoder = new TextEncoder();

/** UTF-8 bytes of a string: its length when every character is ASCII (a URL almost always). */
const utf8Bytes = (text: string) => (/^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength);

/**
 * One `<url>` element, or "" for a page no site URL leads to (a locale the site does not serve...)
 * and for a URL longer than the protocol allows (SITEMAP_MAX_LOC_BYTES).
 */
export function sitemapEntry(page: SitemapPage, origin: string, config: LocaleConfig): string {
  const url = canonicalPageUrl(origin, page.fullPath, page.locale, config);
  if (!url) return "";
  const loc = escapeXml(listingPagePath(url, page.page ?? 1));
  if (utf8Bytes(loc) > SITEMAP_MAX_LOC_BYTES) return "";
  const lastmod = lastmodOf(page.updatedAt);
  return `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>\n`;
}

/**
 * The sequence of `<url>` entries, in the pages' order: a page listed twice (a listing that
 * shifted between two CMS requests) once, a page no site URL leads to not at all. Every
 * function below reads this one sequence, so the plan and the files agree.
 */
function* entriesOf(
  pages: Iterable<SitemapPage>,
  origin: string,
  config: LocaleConfig,
): Generator<{ xml: string; lastmod: string | null }> {
  const seen = new Set<string>();
  for (const page of pages) {
    const key = `${page.locale} ${page.fullPath} ${page.page ?? 1}`;
    if (seen.has(key)) continue;
    const xml = sitemapEntry(page, origin, config);
    if (!xml) continue;
    seen.add(key);
    yield { xml, lastmod: lastmodOf(page.updatedAt) };
  }
}

/**
 * How the sitemap is cut into files: consecutive slices of at most `maxUrls` URLs and
 * `maxBytes` bytes (the file's head and tail included). No URL: no part; one part: the plain
 * sitemap is enough; more: a sitemap index and one file for each.
 */
export function planSitemap(
  pages: Iterable<SitemapPage>,
  origin: string,
  config: LocaleConfig,
  { maxUrls = SITEMAP_MAX_URLS, maxBytes = SITEMAP_MAX_BYTES }: SitemapLimits = {},
): SitemapPart[] {
  const frame = encoder.encode(SITEMAP_HEAD + SITEMAP_TAIL).byteLength;
  const parts: SitemapPart[] = [];
  let current: SitemapPart | undefined;
  let bytes = 0;
  let index = 0;
  for (const { xml, lastmod } of entriesOf(pages, origin, config)) {
    const size = encoder.encode(xml).byteLength;
    if (!current || current.count >= maxUrls || bytes + size > maxBytes) {
      current = { first: index, count: 0, lastmod: null };
      parts.push(current);
      bytes = frame;
    }
    current.count++;
    bytes += size;
    // W3C datetimes from lastmodOf, all in UTC: their text sorts as their time.
    if (lastmod && (!current.lastmod || lastmod > current.lastmod)) current.lastmod = lastmod;
    index++;
  }
  return parts;
}

/**
 * One sitemap file as a byte stream, `chunkSize` entries per chunk: never one string of every
 * entry. `part` picks the slice (planSitemap); without it, every entry.
 */
export function sitemapStream(
  pages: Iterable<SitemapPage>,
  origin: string,
  config: LocaleConfig,
  { chunkSize = 500, part }: { chunkSize?: number; part?: Pick<SitemapPart, "first" | "count"> } = {},
): ReadableStream<Uint8Array> {
  const entries = entriesOf(pages, origin, config);
  const first = part?.first ?? 0;
  const end = part ? part.first + part.count : Infinity;
  let index = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk = started ? "" : SITEMAP_HEAD;
      started = true;
      for (let count = 0; count < chunkSize;) {
        const next = index < end ? entries.next() : undefined;
        if (!next || next.done) {
          controller.enqueue(encoder.encode(chunk + SITEMAP_TAIL));
          controller.close();
          return;
        }
        if (index++ < first) continue;
        chunk += next.value.xml;
        count++;
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}

/**
 * The most files `urls` URLs can need (0 for none; 1: the plain sitemap, no part file): every file
 * but the last holds at least `maxUrls` URLs, or as many of the largest entry as `maxBytes` takes.
 * What /sitemap/<n>.xml answers from a count alone: a part beyond it does not exist, whatever the
 * URLs are (routes/sitemap.$part.ts).
 */
export function sitemapPartsBound(
  urls: number,
  { maxUrls = SITEMAP_MAX_URLS, maxBytes = SITEMAP_MAX_BYTES }: SitemapLimits = {},
): number {
  if (urls <= 0) return 0;
  const frame = encoder.encode(SITEMAP_HEAD + SITEMAP_TAIL).byteLength;
  const perFile = Math.max(1, Math.min(maxUrls, Math.floor((maxBytes - frame) / MAX_ENTRY_BYTES)));
  return Math.ceil(urls / perFile);
}

/** The path of part file `number` (1-based): `/sitemap/1.xml`. */
export function sitemapPartPath(number: number): string {
  return `/sitemap/${number}.xml`;
}

/**
 * The number of the part file a path segment names (`3.xml`: 3), or null for anything else:
 * a leading zero, a sign, another extension, more than nine digits. One spelling per file.
 */
export function sitemapPartNumber(segment: string): number | null {
  const match = /^([1-9][0-9]{0,8})\.xml$/.exec(segment);
  return match ? Number(match[1]) : null;
}

/** Whether a request path is one a part file could be served under (`/sitemap/<n>.xml`). */
export function isSitemapPartPath(pathname: string): boolean {
  return pathname.startsWith("/sitemap/") && sitemapPartNumber(pathname.slice("/sitemap/".length)) !== null;
}

/** The sitemap index: one `<sitemap>` a part, with the newest lastmod of its URLs. */
export function sitemapIndex(parts: readonly SitemapPart[], origin: string): string {
  const entries = parts.map((part, index) => {
    const loc = escapeXml(`${origin}${sitemapPartPath(index + 1)}`);
    return `<sitemap><loc>${loc}</loc>${part.lastmod ? `<lastmod>${part.lastmod}</lastmod>` : ""}</sitemap>\n`;
  });
  return `${XML_DECLARATION}<sitemapindex ${NAMESPACE}>\n${entries.join("")}</sitemapindex>\n`;
}
