import type { NextFunction, Request, Response } from "express";

import { canonicalPath, routeLetterCase, type LetterCase } from "../app/lib/canonical-url.ts";

/** What a request target is: canonical, another spelling of one (308), or none (400). */
export type TargetVerdict = { status: 200 } | { status: 308; location: string } | { status: 400; reason: string };

/**
 * The verdict on a request target (`req.url`: path and query as they arrived). A raw `#` is a
 * 400: a browser never sends one (the fragment stays in the browser), and from any other client
 * it could mean a fragment (`/about`) or a `#` in the path (`/about%23x`); the site does not guess
 * (a 308 would have a cache in front keep the guess), and the target is never looked up as it
 * is: `/about#session` is the page cache's key for the signed-in variant of `/about`.
 */
export function canonicalTarget(url: string, letterCase?: LetterCase): TargetVerdict {
  if (url.includes("#")) {
    return { status: 400, reason: "The address contains a raw '#' (a fragment is not sent to the server)." };
  }
  const queryAt = url.indexOf("?");
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const canonical = canonicalPath(rawPath, letterCase);
  if (!canonical.ok) return { status: 400, reason: canonical.reason };
  if (canonical.path === rawPath) return { status: 200 };
  // Bytes a header may not carry (a raw space, non-ASCII) are percent-encoded.
  const query = queryAt === -1 ? "" : url.slice(queryAt).replace(/[^\x21-\x7e]/g, encodeURIComponent);
  // A path that starts with a single slash: the Location can only lead to this site.
  return { status: 308, location: `${canonical.path}${query}` };
}

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
}

/** The full path of every route of a React Router build (`routes` of the server build), as it spells them. */
export function routePathsOf(routes: Record<string, ManifestRoute | undefined>): string[] {
  const pathOf = (route: ManifestRoute | undefined): string => {
    if (!route) return "";
    const parent = route.parentId ? pathOf(routes[route.parentId]) : "";
    return [parent, route.path ?? ""].filter(Boolean).join("/");
  };
  return Object.values(routes).map(pathOf);
}

/**
 * First in line for every request that reaches Express: a target that is not in its canonical
 * form (app/lib/canonical-url.ts, in the letter case of the site's routes) is answered with a
 * 308 to that form, and one that has none (a broken encoding, an encoded slash, a raw `#`) with
 * a 400. Everything after this (the page cache's key and isCacheablePath, the render's URL,
 * React Router, isAuthPagePath) sees one spelling per address. The query string is passed on as
 * it came; which of its parameters matter is the page cache's business.
 */
export function canonicalRequests(routePaths: readonly string[]) {
  const letterCase = routeLetterCase(routePaths);
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const verdict = canonicalTarget(req.url, letterCase);
    if (verdict.status === 200) return next();
    if (verdict.status === 400) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(`${verdict.reason} Check the address and try again.\n`);
      return;
    }
    res.writeHead(308, { location: verdict.location, "cache-control": "public, max-age=3600" });
    res.end();
  };
  /** Whether a target is canonical: the page cache's fast path answers nothing else (server/index.ts). */
  const isCanonical = (url: string) => canonicalTarget(url, letterCase).status === 200;
  return { middleware, isCanonical };
}
