import type { LocaleConfig } from "../locale-path.ts";
import { canonicalPageUrl } from "./site-url.ts";

/**
 * The XML of /sitemap.xml (sitemaps.org protocol 0.9), written as a stream of chunks: one
 * `<url>` per published page the site serves, with its canonical URL and `lastmod`.
 */

/** What one sitemap entry needs of a page (listPublishedPages gives it). */
export interface SitemapPage {
  fullPath: string;
  locale: string;
  updatedAt?: string | null;
}

/** A protocol limit: one sitemap file lists at most 50,000 URLs. */
export const SITEMAP_MAX_URLS = 50_000;

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

export const SITEMAP_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
export const SITEMAP_TAIL = "</urlset>\n";

/** One `<url>` element, or "" for a page no site URL leads to (a locale the site does not serve...). */
export function sitemapEntry(page: SitemapPage, origin: string, config: LocaleConfig): string {
  const loc = canonicalPageUrl(origin, page.fullPath, page.locale, config);
  if (!loc) return "";
  const lastmod = lastmodOf(page.updatedAt);
  return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>\n`;
}

/**
 * The whole document as a byte stream, `chunkSize` entries per chunk: never one string of
 * every entry. Pages listed twice (a listing that shifted between two CMS requests) appear
 * once; past SITEMAP_MAX_URLS the rest are left out and `onOverflow` is told how many.
 */
export function sitemapStream(
  pages: Iterable<SitemapPage>,
  origin: string,
  config: LocaleConfig,
  { chunkSize = 500, onOverflow }: { chunkSize?: number; onOverflow?: (leftOut: number) => void } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = pages[Symbol.iterator]();
  const seen = new Set<string>();
  let leftOut = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk = started ? "" : SITEMAP_HEAD;
      started = true;
      for (let count = 0; count < chunkSize;) {
        const next = iterator.next();
        if (next.done) {
          controller.enqueue(encoder.encode(chunk + SITEMAP_TAIL));
          if (leftOut > 0) onOverflow?.(leftOut);
          controller.close();
          return;
        }
        const key = `${next.value.locale} ${next.value.fullPath}`;
        if (seen.has(key)) continue;
        const entry = sitemapEntry(next.value, origin, config);
        if (!entry) continue;
        if (seen.size >= SITEMAP_MAX_URLS) {
          leftOut++;
          continue;
        }
        seen.add(key);
        chunk += entry;
        count++;
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}
