import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A small stand-in for Strapi's REST API on loopback, for the site's integration tests that
 * need to control the CMS (make it fail, change content between two requests, count calls).
 * The real Strapi is used by the end-to-end tests.
 */
export interface StandInPage {
  title: string;
  fullPath: string;
  locale?: string;
  /** How many body paragraphs (for pages of a realistic size in benchmarks). */
  paragraphs?: number;
}

export class StandInCms {
  mode: "healthy" | "garbage" | "error" = "healthy";
  pages = new Map<string, StandInPage>();
  navbar = [{ label: "Home", url: "/" }];
  footerNote = "Stand-in footer";
  requests: string[] = [];
  private server: Server | undefined;

  constructor(readonly port: number) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  setPage(page: StandInPage) {
    this.pages.set(`${page.locale ?? "en"}:${page.fullPath}`, page);
  }

  async start() {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve) => this.server?.listen(this.port, "127.0.0.1", resolve));
  }

  async stop() {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    this.requests.push(decodeURIComponent(url.pathname + url.search));
    if (this.mode === "garbage") return res.writeHead(200, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>");
    if (this.mode === "error") return res.writeHead(500).end("{}");
    const json = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    const locale = url.searchParams.get("locale") ?? "en";
    if (url.pathname === "/api/pages") {
      const fullPath = url.searchParams.get("filters[fullPath][$eq]") ?? "";
      const page = this.pages.get(`${locale}:${fullPath}`);
      return json({
        data: page
          ? [
              {
                documentId: `doc-${fullPath}`,
                locale,
                title: page.title,
                fullPath,
                body: Array.from({ length: page.paragraphs ?? 1 }, (_, index) => ({
                  type: "paragraph",
                  children: [{ type: "text", text: `Body of ${page.title}, paragraph ${index + 1}. `.repeat(4) }],
                })),
                seo: null,
              },
            ]
          : [],
      });
    }
    if (url.pathname === "/api/navbar") return json({ data: { links: this.navbar } });
    if (url.pathname === "/api/footer") return json({ data: { links: [], note: this.footerNote } });
    return json({ data: [] });
  }
}
