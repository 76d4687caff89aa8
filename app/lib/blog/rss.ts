import { escapeXml } from "../seo/sitemap.ts";

/**
 * The blog's RSS 2.0 feed (`/blog/rss.xml`, `/de/blog/rss.xml`): the newest articles of one
 * locale. Every text and URL goes through escapeXml (the sitemap's), so an `&` or `<` in a title
 * or excerpt never breaks the XML; characters XML forbids are dropped.
 */

export interface FeedItem {
  title: string;
  /** Absolute URL of the article: also its guid. */
  link: string;
  description: string | null;
  /** ISO date, or null (the item then has no pubDate). */
  date: string | null;
  author: string | null;
  category: string | null;
}

export interface Feed {
  title: string;
  /** Absolute URL of the blog's listing. */
  link: string;
  /** Absolute URL of this feed. */
  self: string;
  description: string;
  language: string;
  items: readonly FeedItem[];
}

/** RFC 822 date (`Tue, 20 Oct 2026 09:00:00 GMT`), or null for a missing or unreadable one. */
export function rfc822(iso: string | null): string | null {
  if (!iso) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : new Date(time).toUTCString();
}

const element = (name: string, value: string | null) => (value ? `<${name}>${escapeXml(value)}</${name}>` : "");

export function rssFeed(feed: Feed): string {
  const newest = feed.items.find((item) => item.date)?.date ?? null;
  const items = feed.items.map(
    (item) =>
      "<item>" +
      element("title", item.title) +
      element("link", item.link) +
      `<guid isPermaLink="true">${escapeXml(item.link)}</guid>` +
      element("description", item.description) +
      element("pubDate", rfc822(item.date)) +
      // RSS's <author> wants an email address; dc:creator takes a name.
      element("dc:creator", item.author) +
      element("category", item.category) +
      "</item>\n",
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">\n' +
    "<channel>\n" +
    element("title", feed.title) +
    element("link", feed.link) +
    `<atom:link href="${escapeXml(feed.self)}" rel="self" type="application/rss+xml"/>` +
    element("description", feed.description) +
    element("language", feed.language) +
    element("lastBuildDate", rfc822(newest)) +
    "\n" +
    items.join("") +
    "</channel>\n</rss>\n"
  );
}
