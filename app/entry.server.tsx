import { PassThrough } from "node:stream";

import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";

import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";

import { logContext } from "./lib/request-context.server.ts";

export const streamTimeout = 5_000;

/**
 * What React Router reports. Its own refusals (a 405 for a method a route does not take, such as
 * a POST to a page) are the client's mistake, answered as they should be: one info line with the
 * reason and no stack (the request log has the status). Anything else is an error of the site,
 * logged with its stack; nothing when the visitor went away. Both go to the request's logger.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const log = context.get(logContext);
  if (isRouteErrorResponse(error) && error.status < 500) {
    const reason = (error as { error?: unknown }).error;
    log.info(
      { status: error.status, method: request.method },
      `[router] ${error.status} ${error.statusText}${reason instanceof Error ? `: ${reason.message}` : ""}`,
    );
    return;
  }
  const cause = isRouteErrorResponse(error) ? ((error as { error?: unknown }).error ?? error) : error;
  log.error({ err: cause }, "[router] the request failed");
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and SPA-mode builds get the whole document at once; browsers get the shell early.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      [readyOption]() {
        shellRendered = true;
        const body = new PassThrough();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors after the shell are logged here; earlier ones are handled by onShellError.
        if (shellRendered)
          loadContext.get(logContext).error({ err: error }, "[render] the page failed after its shell was sent");
      },
    });

    setTimeout(abort, streamTimeout + 1_000);
  });
}
