import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The methods the site answers: GET and HEAD (pages, their `.data`, files, the operational
 * routes) and POST (the forms, /api/auth/*, /api/cms-revalidate, /api/cdn-purge). Nothing in the
 * site takes another (no CORS: OPTIONS neither), and some (TRACE, CONNECT) cannot even become a
 * Fetch `Request`, which React Router and the page cache are made of.
 */
export const ALLOWED_METHODS: readonly string[] = ["GET", "HEAD", "POST"];
const ALLOW = ALLOWED_METHODS.join(", ");

/**
 * Answers a request with any other method with a 405 and `Allow`, before anything reads it (the
 * page cache's fast path, Express, a `Request`), and returns true; false for an allowed method.
 * The request log records it as a 405 like any other answer: it is the client's mistake, not an error.
 */
export function refuseOtherMethods(req: IncomingMessage, res: ServerResponse, requestId: string): boolean {
  if (req.method && ALLOWED_METHODS.includes(req.method)) return false;
  res.writeHead(405, {
    allow: ALLOW,
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-request-id": requestId,
  });
  res.end(`This site answers ${ALLOW} only.\n`);
  return true;
}
