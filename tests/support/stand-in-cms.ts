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
  /** The document (all its locales); default `doc-<fullPath>`, so same-path pages are translations. */
  documentId?: string;
  seo?: {
    metaTitle?: string;
    metaDescription?: string;
    shareImage?: { url: string; alternativeText?: string; width?: number; height?: number; mime?: string };
  };
  updatedAt?: string;
  /** How many body paragraphs (for pages of a realistic size in benchmarks). */
  paragraphs?: number;
}

/** The CMS's account two-factor status (docs/cms-contract.md, "Account two-factor"), asked after every password. */
const TWO_FACTOR = "/api/account-two-factor";

export class StandInCms {
  mode: "healthy" | "garbage" | "error" = "healthy";
  /** Answers content requests this much later (a slow CMS). */
  delayMs = 0;
  pages = new Map<string, StandInPage>();
  /** Published redirects by source (a locale-prefixed path such as `/en/old`). */
  redirects = new Map<string, { destination: string; permanent: boolean }>();
  navbar = [{ label: "Home", url: "/" }];
  footerNote = "Stand-in footer";
  /** The Error page single type's entry (every locale); null: none yet, Strapi's 404. */
  errorPage: { notFoundTitle: string; notFoundText: string; errorTitle: string; errorText: string } | null = null;
  requests: string[] = [];
  /** End users for /api/auth/local and /api/users/me; their JWT is `stand-in-jwt-<id>`. */
  users = new Map<string, { id: number; password: string; blocked: boolean }>();
  /** How /api/users/me answers: as the user is, or a forced status (e.g. 500 while "down"). */
  meStatus: number | null = null;
  /** Answer /api/users/me for a blocked user with 200 and `blocked: true` (Strapi answers 401). */
  blockedMeIs200 = false;
  private server: Server | undefined;

  constructor(readonly port: number) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  setPage(page: StandInPage) {
    this.pages.set(`${page.locale ?? "en"}:${page.fullPath}`, page);
  }

  async start() {
    this.server = createServer((req, res) => {
      if (this.delayMs > 0) setTimeout(() => this.answer(req, res), this.delayMs);
      else this.answer(req, res);
    });
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
    const json = (body: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname.startsWith("/api/auth/") || url.pathname === "/api/users/me" || url.pathname === TWO_FACTOR)
      return this.answerAuth(req, res, url);
    const locale = url.searchParams.get("locale") ?? "en";
    const documentIdOf = (page: StandInPage) => page.documentId ?? `doc-${page.fullPath}`;
    if (url.pathname === "/api/pages" && url.searchParams.has("filters[documentId][$eq]")) {
      // A document's published locales (hreflang alternates), with locale=*.
      const documentId = url.searchParams.get("filters[documentId][$eq]");
      const locales = [...this.pages.values()].filter((page) => documentIdOf(page) === documentId);
      return json({
        data: locales.map((page) => ({ documentId, fullPath: page.fullPath, locale: page.locale ?? "en" })),
        meta: { pagination: { page: 1, pageSize: 100, pageCount: 1, total: locales.length } },
      });
    }
    if (url.pathname === "/api/pages" && !url.searchParams.has("filters[fullPath][$eq]")) {
      // The list of published pages (warm start, sitemap), paged as Strapi pages it.
      const size = Number(url.searchParams.get("pagination[pageSize]") ?? 25);
      const number = Number(url.searchParams.get("pagination[page]") ?? 1);
      const all = [...this.pages.values()].map((page) => ({
        documentId: documentIdOf(page),
        fullPath: page.fullPath,
        locale: page.locale ?? "en",
        updatedAt: page.updatedAt ?? null,
      }));
      return json({
        data: all.slice((number - 1) * size, number * size),
        meta: {
          pagination: {
            page: number,
            pageSize: size,
            pageCount: Math.max(1, Math.ceil(all.length / size)),
            total: all.length,
          },
        },
      });
    }
    if (url.pathname === "/api/pages") {
      const fullPath = url.searchParams.get("filters[fullPath][$eq]") ?? "";
      const page = this.pages.get(`${locale}:${fullPath}`);
      return json({
        data: page
          ? [
              {
                documentId: documentIdOf(page),
                locale,
                title: page.title,
                fullPath,
                body: Array.from({ length: page.paragraphs ?? 1 }, (_, index) => ({
                  type: "paragraph",
                  children: [{ type: "text", text: `Body of ${page.title}, paragraph ${index + 1}. `.repeat(4) }],
                })),
                seo: page.seo ?? null,
              },
            ]
          : [],
      });
    }
    if (url.pathname === "/api/redirects") {
      const source = url.searchParams.get("filters[source][$eq]") ?? "";
      const redirect = this.redirects.get(source);
      return json({ data: redirect ? [{ documentId: `redirect-${source}`, source, ...redirect }] : [] });
    }
    // No blog here: an empty, paged list, as Strapi answers when nothing is published (the sitemap asks).
    if (url.pathname === "/api/articles") {
      return json({ data: [], meta: { pagination: { page: 1, pageSize: 100, pageCount: 0, total: 0 } } });
    }
    if (url.pathname === "/api/navbar") return json({ data: { links: this.navbar } });
    if (url.pathname === "/api/footer") return json({ data: { links: [], note: this.footerNote } });
    if (url.pathname === "/api/error-page") {
      if (this.errorPage) return json({ data: this.errorPage });
      return res.writeHead(404, { "content-type": "application/json" }).end('{"data":null}');
    }
    return json({ data: [] });
  }

  private answerAuth(req: IncomingMessage, res: ServerResponse, url: URL) {
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    // With the accounts plugin's details.code, as the real CMS answers (refusal-codes.js); the site reads only the code.
    const fail = (status: number, message: string, code?: string) =>
      json(status, { data: null, error: { status, message, details: code ? { code } : {} } });
    const userJson = (email: string, user: { id: number; blocked: boolean }) => ({
      id: user.id,
      username: email,
      email,
      provider: "local",
      confirmed: true,
      blocked: user.blocked,
    });
    if (url.pathname === TWO_FACTOR) {
      // Nobody here has two-factor on (the real CMS's routes: tests/integration/cms-two-factor.test.ts).
      const id = Number(/^Bearer stand-in-jwt-(\d+)$/.exec(req.headers.authorization ?? "")?.[1]);
      const known = [...this.users.values()].some((user) => user.id === id && !user.blocked);
      return known ? json(200, { enabled: false, recoveryCodesLeft: 0 }) : fail(401, "Missing or invalid credentials");
    }
    if (url.pathname === "/api/users/me") {
      if (this.meStatus) return fail(this.meStatus, "forced");
      const id = Number(/^Bearer stand-in-jwt-(\d+)$/.exec(req.headers.authorization ?? "")?.[1]);
      const entry = [...this.users].find(([, user]) => user.id === id && (this.blockedMeIs200 || !user.blocked));
      return entry ? json(200, userJson(entry[0], entry[1])) : fail(401, "Missing or invalid credentials");
    }
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(raw || "{}") as Record<string, string>;
      if (url.pathname === "/api/auth/local") {
        const user = this.users.get(body.identifier ?? "");
        if (!user || user.password !== body.password)
          return fail(400, "Invalid identifier or password", "INVALID_CREDENTIALS");
        if (user.blocked) return fail(400, "Your account has been blocked by an administrator", "BLOCKED");
        return json(200, { jwt: `stand-in-jwt-${user.id}`, user: userJson(body.identifier ?? "", user) });
      }
      if (url.pathname === "/api/auth/local/register") {
        if (this.users.has(body.email ?? "")) return fail(400, "Email or Username are already taken", "EMAIL_TAKEN");
        const user = { id: this.users.size + 1, password: body.password ?? "", blocked: false };
        this.users.set(body.email ?? "", user);
        return json(200, { jwt: `stand-in-jwt-${user.id}`, user: userJson(body.email ?? "", user) });
      }
      if (url.pathname === "/api/auth/change-password") {
        // As Strapi: the user behind the JWT, the current password checked, a new JWT issued.
        const id = Number(/^Bearer stand-in-jwt-(\d+)$/.exec(req.headers.authorization ?? "")?.[1]);
        const entry = [...this.users].find(([, user]) => user.id === id && !user.blocked);
        if (!entry) return fail(401, "Missing or invalid credentials");
        const [email, user] = entry;
        if (user.password !== body.currentPassword)
          return fail(400, "The provided current password is invalid", "INVALID_PASSWORD");
        if (user.password === body.password)
          return fail(400, "Your new password must be different than your current password", "SAME_PASSWORD");
        user.password = body.password ?? "";
        return json(200, { jwt: `stand-in-jwt-${user.id}`, user: userJson(email, user) });
      }
      if (url.pathname === "/api/auth/forgot-password") return json(200, { ok: true });
      // No reset codes are ever issued here: any code is wrong, as Strapi says it.
      if (url.pathname === "/api/auth/reset-password")
        return fail(400, "Incorrect code provided", "INVALID_RESET_CODE");
      return fail(404, "Not Found");
    });
  }
}
