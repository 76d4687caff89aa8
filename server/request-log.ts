import type { IncomingMessage, ServerResponse } from "node:http";

import { REQUEST_LINE, type Logger } from "../app/lib/logger.server.ts";

/**
 * One JSON line per request, once its answer is finished or the client went away: the request
 * id, method, path (never the query string: it may carry a secret, as /api/preview's does),
 * status, what the page cache did (HIT, STALE, MISS, BYPASS, or none) and the duration in ms.
 * At LOG_LEVEL warn or above nothing is registered at all.
 */
export function requestLogger(log: Pick<Logger, "info" | "isLevelEnabled">) {
  if (!log.isLevelEnabled("info")) return undefined;
  return (req: IncomingMessage, res: ServerResponse, reqId: string, hit: () => boolean) => {
    const started = performance.now();
    res.once("close", () => {
      const url = req.url ?? "/";
      const query = url.indexOf("?");
      log.info(
        {
          reqId,
          method: req.method,
          path: query === -1 ? url : url.slice(0, query),
          status: res.statusCode,
          // A HIT from the fast path wrote its headers as a prepared list: Node keeps no copy to read.
          cache: hit() ? "HIT" : (res.getHeader("x-cache") ?? null),
          ms: Math.round((performance.now() - started) * 10) / 10,
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        REQUEST_LINE,
      );
    });
  };
}
