/**
 * How many cached pages one article publish revalidates on a site with 1,000 articles and 200
 * pages (issue 23, "dependencies recorded, not declared"): `npm run bench:fanout`.
 *
 * The cache entries are the real ones: the built site (build/server/index.js, createApp) renders
 * every page once through its page cache, with the real CMS client and route loaders, against a
 * stand-in CMS that answers as Strapi 5 does (bench/strapi-like-blog-cms.ts: 500 article
 * documents in en and de = 1,000 articles, 5 categories, 10 authors, 100 page documents in en and
 * de = 200 pages, 3 of them ×2 with a latest-articles section). Then, for each change, the
 * payload the CMS sends (built here from the tag contract's rules C1–C5, docs/cms-contract.md
 * "Revalidation") goes through the site's own revalidation handler into a fresh invalidation
 * record, and every entry it marks stale or expired is counted, by kind.
 *
 * The old scheme, for comparison: each render's tags as the call sites wrote them before
 * (rebuilt from the CMS requests the render made: every article query but a document lookup
 * carried `cms:api::article.article`, `…category…` and `…author…`; a category query the
 * category's type tag; the sitemap's page listing `cms:api::page.page`; document lookups their
 * document's tag; navbar, footer, Error page their type's), and what the CMS sent then (an
 * article's paths with the article type's tag and its document's; an author's type tag).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { Registry } from "prom-client";

import { cmsDocumentTag, cmsListTag, cmsTag } from "../app/lib/cms/client.server.ts";
import { parseEnv } from "../app/lib/env.server.ts";
import { createLogger } from "../app/lib/logger.server.ts";
import { localeConfigOf } from "../app/lib/locales.server.ts";
import { createRedisClients } from "../app/lib/redis.server.ts";
import type { App, AppDeps } from "../server/app.ts";
import type { PageCache } from "../server/cache/index.ts";
import { Invalidations, pathTag } from "../server/cache/invalidations.ts";
import { IsrCache } from "../server/cache/isr-cache.ts";
import type { CachedResponse } from "../server/cache/response-cache.ts";
import type { CacheEntry, CacheStore } from "../server/cache/types.ts";
import { handleRevalidation } from "../server/revalidation/handle-revalidation.ts";
import type { RevalidationPayload } from "../server/revalidation/payload.ts";
import { projectRoot } from "../tests/support/app-server.ts";
import { StrapiLikeBlogCms, type ArticleRow } from "./strapi-like-blog-cms.ts";
import { buildSite } from "./support.ts";

const ARTICLE = "api::article.article";
const CATEGORY = "api::category.category";
const AUTHOR = "api::author.author";
const PAGE = "api::page.page";
const NAVBAR = "api::navbar.navbar";
const SECRET = "bench-revalidate-secret-0123456789";

/** Every entry the page cache stores, kept (about 1,500 here: a benchmark's, not a server's). */
class KeptStore<V> implements CacheStore<V> {
  readonly entries = new Map<string, CacheEntry<V>>();
  get = (key: string) => this.entries.get(key);
  set = (key: string, entry: CacheEntry<V>) => void this.entries.set(key, entry);
  delete = (key: string) => void this.entries.delete(key);
  get byteSize() {
    return 0;
  }
  get count() {
    return this.entries.size;
  }
}

type Kind = "article" | "listing" | "category" | "page with latest articles" | "other page" | "feed" | "sitemap";
const KINDS: Kind[] = ["article", "listing", "category", "page with latest articles", "other page", "feed", "sitemap"];

interface Rendered {
  url: string;
  kind: Kind;
  entry: CacheEntry<CachedResponse>;
  /** The render's tags under the old scheme (path tag included). */
  oldTags: string[];
}

if (!process.argv.includes("--no-build")) buildSite();
const cms = new StrapiLikeBlogCms();
await cms.start();

const server = createServer();
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const config = parseEnv({
  NODE_ENV: "production",
  CMS_URL: cms.url,
  CMS_REST_READONLY_API_KEY: "bench-read-only-token",
  APP_PUBLIC_URL: origin,
  SESSION_AUTH_SECRET: "bench-session-secret-0123456789-0123456789",
  CACHE_WARM_PAGES: "0",
  LOG_LEVEL: "error",
});
const locales = localeConfigOf(config);
const store = new KeptStore<CachedResponse>();
const renderInvalidations = new Invalidations({ origin: "bench" });
const cache: PageCache = {
  pages: new IsrCache<CachedResponse>({ store, invalidations: renderInvalidations }),
  // No data cache: every render asks the CMS, so its requests tell its old-scheme tags.
  dataCache: undefined,
  revalidator: { revalidatePath: () => {}, revalidateTag: () => {} },
  metrics: new Registry(),
  countBypass: () => {},
  warm: () => {},
};
const log = createLogger("error");
const build = (await import(path.join(projectRoot, "build/server/index.js"))) as {
  createApp: (deps: AppDeps) => App;
};
const app = build.createApp({ config, cache, redis: createRedisClients(undefined, log), log });
server.on("request", (req: IncomingMessage, res: ServerResponse) => app.handler(req, res));

// ---- Every page, rendered once ----
const urls: Array<{ url: string; kind: Kind }> = [];
const prefix = (locale: string) => (locale === "en" ? "" : `/${locale}`);
for (const article of cms.articles)
  urls.push({ url: `${prefix(article.locale)}/blog/${article.slug}`, kind: "article" });
for (const locale of locales.locales) {
  const pages = Math.ceil(cms.listing(locale as "en" | "de").length / 10);
  for (let page = 1; page <= pages; page++) {
    urls.push({ url: `${prefix(locale)}/blog${page > 1 ? `?page=${page}` : ""}`, kind: "listing" });
  }
  urls.push({ url: `${prefix(locale)}/blog/rss.xml`, kind: "feed" });
}
for (const category of cms.categories) {
  const count = cms.articles.filter((a) => a.category === category.documentId && a.locale === category.locale).length;
  for (let page = 1; page <= Math.ceil(count / 10); page++) {
    const base = `${prefix(String(category.locale))}/blog/category/${String(category.slug)}`;
    urls.push({ url: `${base}${page > 1 ? `?page=${page}` : ""}`, kind: "category" });
  }
}
for (const page of cms.pages) {
  const url = page.fullPath === "/" ? prefix(page.locale) || "/" : `${prefix(page.locale)}${page.fullPath}`;
  urls.push({ url, kind: page.latest ? "page with latest articles" : "other page" });
}
urls.push({ url: "/sitemap.xml", kind: "sitemap" });

const rendered: Rendered[] = [];
const started = performance.now();
for (const { url, kind } of urls) {
  const from = cms.requests.length;
  const keysBefore = new Set(store.entries.keys());
  const response = await fetch(`${origin}${url}`);
  await response.arrayBuffer();
  if (response.status !== 200 || response.headers.get("x-cache") !== "MISS") {
    throw new Error(`${url}: ${response.status} ${response.headers.get("x-cache")}`);
  }
  const key = [...store.entries.keys()].find((candidate) => !keysBefore.has(candidate));
  const entry = key && store.entries.get(key);
  if (!entry) throw new Error(`${url}: no cache entry`);
  rendered.push({ url, kind, entry, oldTags: [...oldTagsOf(cms.requests.slice(from)), pathTag(entry.path)] });
}
const renderSeconds = (performance.now() - started) / 1000;

/** The tags the call sites wrote before issue 23.3, from the CMS requests one render made. */
function oldTagsOf(requests: string[]): Set<string> {
  const tags = new Set<string>();
  for (const request of requests) {
    const [pathname = "", search = ""] = request.split("?");
    const documentId = /(?:^|&)filters\[documentId\]\[\$eq\]=([^&]+)/.exec(search)?.[1];
    if (pathname === "/api/navbar") tags.add(cmsTag(NAVBAR));
    else if (pathname === "/api/footer") tags.add(cmsTag("api::footer.footer"));
    else if (pathname === "/api/error-page") tags.add(cmsTag("api::error-page.error-page"));
    else if (pathname === "/api/categories") tags.add(cmsTag(CATEGORY));
    else if (pathname === "/api/articles" && documentId) tags.add(cmsDocumentTag(ARTICLE, documentId));
    else if (pathname === "/api/articles") for (const uid of [ARTICLE, CATEGORY, AUTHOR]) tags.add(cmsTag(uid));
    else if (pathname === "/api/pages" && documentId) tags.add(cmsDocumentTag(PAGE, documentId));
    else if (pathname === "/api/pages" && !search.includes("filters[fullPath]")) tags.add(cmsTag(PAGE));
  }
  return tags;
}

// ---- What the CMS sends (the contract's C1–C5; and before) ----
const sitePathOf = (article: { locale: string; slug: string }) => `${prefix(article.locale)}/blog/${article.slug}`;

/** C3 (+C4): a membership change of `article` in its locale, with its neighbours in the declared order. */
function membershipTags(article: ArticleRow, neighbours: ArticleRow[]): string[] {
  const tags: string[] = [];
  for (const locale of [article.locale, "*"]) {
    tags.push(cmsListTag(ARTICLE, locale));
    tags.push(cmsListTag(ARTICLE, locale, { attribute: "category", documentId: article.category }));
    tags.push(cmsListTag(ARTICLE, locale, { attribute: "author", documentId: article.author }));
  }
  return [...tags, ...neighbours.map((n) => cmsDocumentTag(ARTICLE, n.documentId))];
}

/** C5 for an article: the category and the author have a relation attribute (`articles`) targeting it. */
const inverseSides = (article: ArticleRow) => [
  cmsDocumentTag(CATEGORY, article.category),
  cmsDocumentTag(AUTHOR, article.author),
];

const english = cms.listing("en");
const edited = english[123]!;
const [before, after] = [english[122]!, english[124]!];
const fresh: ArticleRow = {
  ...edited,
  documentId: "articlenew",
  slug: "article-new",
  title: "A new article",
  publishDate: "2030-01-01T00:00:00.000Z",
  category: "category1",
  author: "author1",
};
const renamedAuthor = "author3";
const authorsArticles = [...new Set(cms.articles.filter((a) => a.author === renamedAuthor).map((a) => a.documentId))];

interface Scenario {
  name: string;
  old: RevalidationPayload;
  next: RevalidationPayload;
  /** The same, C5 applied to owning relation sides only (no category/author inverse `articles`). */
  owningOnly: RevalidationPayload;
}

const articlePayload = (paths: string[], tags: string[], expire?: boolean): RevalidationPayload => ({
  uid: ARTICLE,
  next: { fullPaths: paths, tags: [...new Set(tags)], ...(expire ? { expire } : {}) },
});
const oldArticle = (article: ArticleRow, expire?: boolean) =>
  articlePayload([sitePathOf(article)], [cmsTag(ARTICLE), cmsDocumentTag(ARTICLE, article.documentId)], expire);

const scenarios: Scenario[] = [
  {
    name: "(a) first publish of a new article (en, newest)",
    old: oldArticle(fresh),
    next: articlePayload(
      [sitePathOf(fresh)],
      [cmsDocumentTag(ARTICLE, fresh.documentId), ...membershipTags(fresh, [english[0]!]), ...inverseSides(fresh)],
    ),
    owningOnly: articlePayload(
      [sitePathOf(fresh)],
      [cmsDocumentTag(ARTICLE, fresh.documentId), ...membershipTags(fresh, [english[0]!])],
    ),
  },
  {
    name: "(b) republish of an article (title edit)",
    old: oldArticle(edited),
    next: articlePayload([sitePathOf(edited)], [cmsDocumentTag(ARTICLE, edited.documentId), ...inverseSides(edited)]),
    owningOnly: articlePayload([sitePathOf(edited)], [cmsDocumentTag(ARTICLE, edited.documentId)]),
  },
  {
    name: "(c) unpublish of an article",
    old: oldArticle(edited, true),
    next: articlePayload(
      [sitePathOf(edited)],
      [cmsDocumentTag(ARTICLE, edited.documentId), ...membershipTags(edited, [before, after]), ...inverseSides(edited)],
      true,
    ),
    owningOnly: articlePayload(
      [sitePathOf(edited)],
      [cmsDocumentTag(ARTICLE, edited.documentId), ...membershipTags(edited, [before, after])],
      true,
    ),
  },
  {
    name: `(d) an author renamed (${authorsArticles.length} of the ${english.length} article documents)`,
    old: { uid: AUTHOR, next: { tags: [cmsTag(AUTHOR)] } },
    next: {
      uid: AUTHOR,
      next: {
        tags: [cmsDocumentTag(AUTHOR, renamedAuthor), ...authorsArticles.map((id) => cmsDocumentTag(ARTICLE, id))],
      },
    },
    owningOnly: {
      uid: AUTHOR,
      next: {
        tags: [cmsDocumentTag(AUTHOR, renamedAuthor), ...authorsArticles.map((id) => cmsDocumentTag(ARTICLE, id))],
      },
    },
  },
  {
    name: "(e) the navbar edited",
    old: { uid: NAVBAR, next: { tags: [cmsTag(NAVBAR)] } },
    next: { uid: NAVBAR, next: { tags: [cmsTag(NAVBAR)] } },
    owningOnly: { uid: NAVBAR, next: { tags: [cmsTag(NAVBAR)] } },
  },
];

/** The entries a payload marks stale or expired, by kind, through the site's revalidation handler. */
async function staleCount(payload: RevalidationPayload, scheme: "old" | "new"): Promise<Map<Kind | "total", number>> {
  const invalidations = new Invalidations({ origin: "bench" });
  const response = await handleRevalidation(
    new Request(`${origin}/api/cms-revalidate`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
      body: JSON.stringify(payload),
    }),
    {
      secret: SECRET,
      locales,
      log: () => {},
      revalidator: {
        revalidatePath: (target, profile) => invalidations.revalidatePath(target, { expire: profile !== "max" }),
        revalidateTag: (tag, profile) => invalidations.revalidateTag(tag, { expire: profile !== "max" }),
      },
    },
  );
  if (response.status !== 200) throw new Error(`revalidation refused: ${await response.text()}`);
  const counts = new Map<Kind | "total", number>([...KINDS, "total"].map((kind) => [kind as Kind, 0]));
  for (const { kind, entry, oldTags } of rendered) {
    const tags = scheme === "old" ? oldTags : entry.tags;
    if (invalidations.invalidationOf({ tags, path: entry.path, seen: entry.seen }) === "none") continue;
    counts.set(kind, counts.get(kind)! + 1);
    counts.set("total", counts.get("total")! + 1);
  }
  return counts;
}

// Nothing is stale before anything is sent (every entry's stamp predates the records made here).
const none = await staleCount({ uid: PAGE, next: { tags: ["cms:nothing"] } }, "new");
if (none.get("total") !== 0) throw new Error("entries count as stale with nothing sent");

const cached = new Map<Kind, number>(KINDS.map((kind) => [kind, rendered.filter((r) => r.kind === kind).length]));
const pad = (text: string | number, width: number) => String(text).padStart(width);
console.log(
  `Cached: ${rendered.length} entries (${KINDS.map((kind) => `${cached.get(kind)} ${kind}`).join(", ")}), rendered in ${renderSeconds.toFixed(1)} s.`,
);
const tagsOf = (kind: Kind) => rendered.filter((r) => r.kind === kind).map((r) => r.entry.tags.length);
console.log(
  `Tags an entry carries (new; old in brackets): ${KINDS.map((kind) => {
    const counts = tagsOf(kind);
    const olds = rendered.filter((r) => r.kind === kind).map((r) => r.oldTags.length);
    return `${kind} ${Math.min(...counts)}–${Math.max(...counts)} (${Math.max(...olds)})`;
  }).join(", ")}.`,
);
for (const scenario of scenarios) {
  const [old, next, owning] = await Promise.all([
    staleCount(scenario.old, "old"),
    staleCount(scenario.next, "new"),
    staleCount(scenario.owningOnly, "new"),
  ]);
  console.log(
    `\n${scenario.name}: ${scenario.next.next.tags?.length ?? 0} tags, ${scenario.next.next.fullPaths?.length ?? 0} paths sent`,
  );
  console.log(`${"".padEnd(28)}${pad("cached", 8)}${pad("old", 8)}${pad("new", 8)}${pad("new, C5 owning only", 21)}`);
  for (const kind of [...KINDS, "total" as const]) {
    const all = kind === "total" ? rendered.length : cached.get(kind)!;
    console.log(
      `${kind.padEnd(28)}${pad(all, 8)}${pad(old.get(kind)!, 8)}${pad(next.get(kind)!, 8)}${pad(owning.get(kind)!, 21)}`,
    );
  }
}

// ---- The cost per HIT: a HIT checks each of the entry's tags (one Map lookup each) ----
// Against a record holding 2,000 invalidated tags and paths (none of them the entry's).
const busy = new Invalidations({ origin: "bench" });
for (let i = 0; i < 1_000; i++) {
  busy.revalidateTag(cmsDocumentTag(ARTICLE, `elsewhere${i}`));
  busy.revalidatePath(`/elsewhere/${i}`);
}
const checkNanoseconds = (entry: CacheEntry<CachedResponse>, tags: string[]) => {
  const target = { tags, path: entry.path, seen: entry.seen };
  const rounds = 100_000;
  let best = Infinity;
  // The best of 7 runs: the machine's other work only ever adds time.
  for (let run = 0; run < 7; run++) {
    const begin = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) busy.invalidationOf(target);
    best = Math.min(best, Number(process.hrtime.bigint() - begin) / rounds);
  }
  return best;
};
console.log("\nThe check a HIT makes (Invalidations.invalidationOf), per entry, best of 7: old tags → new tags");
for (const kind of KINDS) {
  const sample = rendered.find((r) => r.kind === kind)!;
  const [old, next] = [
    checkNanoseconds(sample.entry, sample.oldTags),
    checkNanoseconds(sample.entry, sample.entry.tags),
  ];
  console.log(
    `${kind.padEnd(28)}${pad(sample.oldTags.length, 4)} tags ${pad(old.toFixed(0), 6)} ns → ${pad(sample.entry.tags.length, 4)} tags ${pad(next.toFixed(0), 6)} ns`,
  );
}

server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
await cms.stop();
