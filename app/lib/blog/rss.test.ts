import { describe, expect, it } from "vitest";

import { rfc822, rssFeed } from "./rss.ts";

const feed = (items: Parameters<typeof rssFeed>[0]["items"]) =>
  rssFeed({
    title: "Blog | Acme",
    link: "https://acme.example/blog",
    self: "https://acme.example/blog/rss.xml",
    description: "News & stories",
    language: "en",
    items,
  });

describe("RSS feed", () => {
  it("writes an RSS 2.0 channel with one item per article, newest date as lastBuildDate", () => {
    const xml = feed([
      {
        title: "Acme 3.0 is out",
        link: "https://acme.example/blog/acme-3",
        description: "A new editor.",
        date: "2026-10-20T09:00:00.000Z",
        author: "Jonas Weber",
        category: "Company news",
      },
      {
        title: "Older",
        link: "https://acme.example/blog/older",
        description: null,
        date: null,
        author: null,
        category: null,
      },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml).toContain("<title>Blog | Acme</title>");
    expect(xml).toContain(
      '<atom:link href="https://acme.example/blog/rss.xml" rel="self" type="application/rss+xml"/>',
    );
    expect(xml).toContain("<lastBuildDate>Tue, 20 Oct 2026 09:00:00 GMT</lastBuildDate>");
    expect(xml).toContain(
      "<item><title>Acme 3.0 is out</title><link>https://acme.example/blog/acme-3</link>" +
        '<guid isPermaLink="true">https://acme.example/blog/acme-3</guid><description>A new editor.</description>' +
        "<pubDate>Tue, 20 Oct 2026 09:00:00 GMT</pubDate><dc:creator>Jonas Weber</dc:creator>" +
        "<category>Company news</category></item>",
    );
    // Missing parts are left out, not written empty.
    expect(xml).toContain(
      '<item><title>Older</title><link>https://acme.example/blog/older</link><guid isPermaLink="true">https://acme.example/blog/older</guid></item>',
    );
    expect(xml.trimEnd().endsWith("</channel>\n</rss>")).toBe(true);
  });

  it("escapes markup and entities in every text, and drops characters XML forbids", () => {
    const xml = feed([
      {
        title: `Caching <pages> & "keeping" 'them' fresh\u0001`,
        link: "https://acme.example/blog/a?x=1&y=2",
        description: "</description><script>alert(1)</script>",
        date: "not a date",
        author: "A & B",
        category: "<b>",
      },
    ]);
    expect(xml).toContain("<title>Caching &lt;pages&gt; &amp; &quot;keeping&quot; &apos;them&apos; fresh</title>");
    expect(xml).toContain("<link>https://acme.example/blog/a?x=1&amp;y=2</link>");
    expect(xml).toContain("<description>&lt;/description&gt;&lt;script&gt;alert(1)&lt;/script&gt;</description>");
    expect(xml).toContain("<dc:creator>A &amp; B</dc:creator><category>&lt;b&gt;</category>");
    expect(xml).not.toContain("<script>");
    expect(xml).not.toContain("\u0001");
    expect(xml).not.toContain("<pubDate>");
    expect(xml).toContain("<description>News &amp; stories</description>");
  });

  it("dates: RFC 822 in GMT, none for a missing or unreadable one", () => {
    expect(rfc822("2026-01-02T03:04:05Z")).toBe("Fri, 02 Jan 2026 03:04:05 GMT");
    expect(rfc822(null)).toBeNull();
    expect(rfc822("soon")).toBeNull();
  });
});
