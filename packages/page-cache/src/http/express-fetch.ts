import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

/** Express <-> Web Fetch API, for React Router's handler and the ISR cache. */

/**
 * The Web Request for an Express request. Its URL is the site's own origin (its public URL)
 * plus the request's path and query, never the Host or X-Forwarded-Host a client sent: a
 * stranger's header must not choose what is rendered (and cached) for everyone.
 */
export function toWebRequest(req: ExpressRequest, res: ExpressResponse, origin: string): Request {
  // Concatenated, not resolved: `new URL("//x", base)` would read "//x" as another host.
  const url = new URL(`${origin}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  // The real client address as Express sees it (its "trust proxy" setting), for rate limits; a value the
  // client sent under this name is overwritten, never trusted.
  headers.set("x-client-ip", req.ip ?? req.socket.remoteAddress ?? "unknown");
  const controller = new AbortController();
  // Abort the render when the client goes away before the response is complete.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: bodyStream(req), duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * The request body as a Web stream. Not Readable.toWeb(): when a reader cancels it (a body over
 * its limit) while the client is still sending, that destroys the request and its socket, so
 * the 413 could never be answered (and Node 20, no longer supported, crashed the process there).
 * Cancelling here stops reading and leaves the socket to the answer.
 */
function bodyStream(req: ExpressRequest): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.once("end", () => {
        if (done) return;
        done = true;
        controller.close();
      });
      req.once("error", (error) => {
        if (done) return;
        done = true;
        controller.error(error);
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      done = true;
      req.pause();
    },
  });
}

export async function sendWebResponse(res: ExpressResponse, response: Response, method: string): Promise<void> {
  res.statusCode = response.status;
  res.statusMessage = response.statusText || res.statusMessage;
  const cookies = response.headers.getSetCookie();
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.append(name, value);
  }
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (!response.body || method === "HEAD") {
    res.end();
    return;
  }
  try {
    await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), res);
  } catch (error) {
    // The visitor went away mid-response: nothing to answer, nothing to report.
    if ((error as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE" && res.destroyed) return;
    throw error;
  }
}
