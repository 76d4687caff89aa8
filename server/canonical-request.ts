import type { NextFunction, Request, Response } from "express";

import { canonicalPath } from "../app/lib/canonical-url.ts";

/**
 * First in line for every request that reaches Express: a path that is not in its canonical
 * form (app/lib/canonical-url.ts) is answered with a 308 to that form, and one that has none
 * (a broken encoding, an encoded slash) with a 400. Everything after this (the page cache's
 * key, the render's URL, React Router) sees one spelling per address. The query string is
 * passed on as it came; which of its parameters matter is the page cache's business.
 */
export function canonicalRequests() {
  return (req: Request, res: Response, next: NextFunction) => {
    const queryAt = req.url.indexOf("?");
    const rawPath = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    const canonical = canonicalPath(rawPath);
    if (!canonical.ok) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(`${canonical.reason} Check the address and try again.\n`);
      return;
    }
    if (canonical.path === rawPath) return next();
    // Bytes a header may not carry (a raw space, non-ASCII) are percent-encoded.
    const query = queryAt === -1 ? "" : req.url.slice(queryAt).replace(/[^\x21-\x7e]/g, encodeURIComponent);
    // A path that starts with a single slash: the Location can only lead to this site.
    res.writeHead(308, { location: `${canonical.path}${query}`, "cache-control": "public, max-age=3600" });
    res.end();
  };
}
