import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { parse } from "qs";

/**
 * A stand-in CMS that answers the site's content queries as Strapi 5 does (REST, `qs` filters,
 * `documentId` on every entry and populated relation, `meta.pagination`), over a generated site:
 * ARTICLE_DOCUMENTS articles in 2 locales (en, de) in 5 categories by 10 authors, PAGE_DOCUMENTS
 * pages in both locales (the home page and two others with a latest-articles section, the home
 * page's of every category, the others' of one), navbar, footer and Error page. For
 * bench/revalidation-fanout.ts. It understands the filter shapes the site sends ($eq, $ne, $lt,
 * $gt, $or, a relation's documentId or slug), `locale` (`*`: every one), `sort` and `pagination`;
 * `fields` and `populate` are ignored (every field comes back, as if all were asked for).
 */

export const LOCALES = ["en", "de"] as const;
export type Locale = (typeof LOCALES)[number];
export const ARTICLE_DOCUMENTS = 500;
export const PAGE_DOCUMENTS = 100;
export const CATEGORY_DOCUMENTS = 5;
export const AUTHOR_DOCUMENTS = 10;

type Row = Record<string, unknown> & { documentId: string; locale?: string };

export interface ArticleRow extends Row {
  locale: Locale;
  title: string;
  slug: string;
  publishDate: string;
  category: string;
  author: string;
}

export interface PageRow extends Row {
  locale: Locale;
  fullPath: string;
  latest?: { count: number; category: string | null };
}

const pad = (value: number, width: number) => String(value).padStart(width, "0");
const HOUR = 3_600_000;

export class StrapiLikeBlogCms {
  readonly categories: Row[] = [];
  readonly authors: Row[] = [];
  readonly articles: ArticleRow[] = [];
  readonly pages: PageRow[] = [];
  /** Every request's path and query, decoded, in order (the benchmark slices it per render). */
  readonly requests: string[] = [];
  private server: Server | undefined;
  url = "";

  constructor() {
    for (let c = 0; c < CATEGORY_DOCUMENTS; c++) {
      for (const locale of LOCALES) {
        const slug = locale === "en" ? `category-${c}` : `kategorie-${c}`;
        this.categories.push({ documentId: `category${c}`, locale, name: `Category ${c} (${locale})`, slug });
      }
    }
    for (let a = 0; a < AUTHOR_DOCUMENTS; a++) {
      this.authors.push({ documentId: `author${a}`, name: `Author ${a}`, role: "Writer" });
    }
    const start = Date.parse("2024-01-01T09:00:00.000Z");
    for (let i = 0; i < ARTICLE_DOCUMENTS; i++) {
      for (const locale of LOCALES) {
        this.articles.push({
          documentId: `article${pad(i, 3)}`,
          locale,
          title: `Article ${i} (${locale})`,
          slug: locale === "en" ? `article-${pad(i, 3)}` : `artikel-${pad(i, 3)}`,
          excerpt: `What article ${i} is about.`,
          publishDate: new Date(start + i * HOUR).toISOString(),
          publishedAt: new Date(start + i * HOUR).toISOString(),
          updatedAt: new Date(start + i * HOUR).toISOString(),
          category: `category${i % CATEGORY_DOCUMENTS}`,
          author: `author${i % AUTHOR_DOCUMENTS}`,
        });
      }
    }
    for (let p = 0; p < PAGE_DOCUMENTS; p++) {
      for (const locale of LOCALES) {
        const fullPath = p === 0 ? "/" : locale === "en" ? `/page-${pad(p, 2)}` : `/seite-${pad(p, 2)}`;
        const latest =
          p === 0 ? { count: 3, category: null } : p <= 2 ? { count: 5, category: `category${p}` } : undefined;
        this.pages.push({
          documentId: `page${pad(p, 2)}`,
          locale,
          title: `Page ${p} (${locale})`,
          fullPath,
          updatedAt: "2026-01-01T00:00:00.000Z",
          ...(latest ? { latest } : {}),
        });
      }
    }
  }

  async start() {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://cms.test");
      this.requests.push(decodeURIComponent(url.pathname + url.search));
      const answer = this.answer(url.pathname, parse(url.search.slice(1), { depth: 12, arrayLimit: 200 }));
      res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Articles of `locale` in the listing's order (publishDate desc, slug asc). */
  listing(locale: Locale): ArticleRow[] {
    return this.articles
      .filter((article) => article.locale === locale)
      .sort((a, b) => b.publishDate.localeCompare(a.publishDate) || a.slug.localeCompare(b.slug));
  }

  private category(documentId: string, locale: string) {
    const found = this.categories.find((row) => row.documentId === documentId && row.locale === locale);
    return found ? { id: 1, ...found } : null;
  }

  private articleOut(row: ArticleRow) {
    const { category, author, ...rest } = row;
    return {
      id: 1,
      ...rest,
      cover: null,
      body: [{ type: "paragraph", children: [{ type: "text", text: `The body of ${row.title}.` }] }],
      category: this.category(category, row.locale),
      author: { id: 1, ...this.authors.find((entry) => entry.documentId === author) },
    };
  }

  private pageOut(row: PageRow) {
    const { latest, ...rest } = row;
    return {
      id: 1,
      ...rest,
      body: [{ type: "paragraph", children: [{ type: "text", text: `The body of ${row.title}.` }] }],
      sections: latest
        ? [
            {
              __component: "sections.latest-articles",
              id: 1,
              heading: "Latest articles",
              count: latest.count,
              category: latest.category ? this.category(latest.category, row.locale) : null,
            },
          ]
        : [],
      seo: null,
    };
  }

  private answer(path: string, query: Record<string, unknown>): { status: number; body: unknown } {
    const locale = typeof query.locale === "string" ? query.locale : "en";
    const single = (data: Record<string, unknown>) => ({ status: 200, body: { data, meta: {} } });
    switch (path) {
      case "/api/navbar":
        return single({ id: 1, documentId: "navbar", locale, links: [{ id: 1, label: "Blog", url: "/blog" }] });
      case "/api/footer":
        return single({ id: 1, documentId: "footer", locale, links: [], note: "© Example" });
      case "/api/error-page":
        return single({ id: 1, documentId: "errorpage", locale, notFoundTitle: "Not found", notFoundText: "Nothing." });
      case "/api/redirects":
        return this.collection([], query);
      case "/api/articles":
        return this.collection(
          this.articles.map((row) => this.articleOut(row)),
          query,
        );
      case "/api/categories":
        return this.collection(
          this.categories.map((row) => ({ id: 1, ...row })),
          query,
        );
      case "/api/pages":
        return this.collection(
          this.pages.map((row) => this.pageOut(row)),
          query,
        );
      default:
        return {
          status: 404,
          body: { data: null, error: { status: 404, name: "NotFoundError", message: "Not Found" } },
        };
    }
  }

  private collection(rows: Array<Record<string, unknown>>, query: Record<string, unknown>) {
    const locale = typeof query.locale === "string" ? query.locale : undefined;
    let found = rows.filter((row) => (!locale || locale === "*" || !row.locale ? true : row.locale === locale));
    if (query.filters) found = found.filter((row) => matches(row, query.filters));
    const sort = (Array.isArray(query.sort) ? query.sort : query.sort ? [query.sort] : []) as string[];
    found.sort((a, b) => {
      for (const rule of sort) {
        const [field = "", direction] = rule.split(":");
        const order = String(a[field] ?? "").localeCompare(String(b[field] ?? ""));
        if (order !== 0) return direction === "desc" ? -order : order;
      }
      return 0;
    });
    const pagination = (query.pagination ?? {}) as { page?: string; pageSize?: string };
    const page = Number(pagination.page ?? 1);
    const pageSize = Math.min(Number(pagination.pageSize ?? 25), 100);
    return {
      status: 200,
      body: {
        data: found.slice((page - 1) * pageSize, page * pageSize),
        meta: { pagination: { page, pageSize, pageCount: Math.ceil(found.length / pageSize), total: found.length } },
      },
    };
  }
}

/** Strapi's filter semantics for the shapes the site sends. */
function matches(row: unknown, filter: unknown): boolean {
  if (typeof filter !== "object" || filter === null) return true;
  return Object.entries(filter as Record<string, unknown>).every(([key, condition]) => {
    if (key === "$or") return (condition as unknown[]).some((part) => matches(row, part));
    if (key === "$and") return (condition as unknown[]).every((part) => matches(row, part));
    const value = (row as Record<string, unknown> | null)?.[key];
    const operators = condition as Record<string, unknown>;
    if (!Object.keys(operators).every((name) => name.startsWith("$"))) {
      // A relation: its own fields' conditions.
      return value !== null && value !== undefined && matches(value, operators);
    }
    return Object.entries(operators).every(([operator, operand]) => {
      const [left, right] = [String(value ?? ""), String(operand)];
      switch (operator) {
        case "$eq":
          return left === right;
        case "$ne":
          return left !== right;
        case "$lt":
          return left < right;
        case "$gt":
          return left > right;
        default:
          throw new Error(`the stand-in CMS does not know the filter ${operator}`);
      }
    });
  });
}
