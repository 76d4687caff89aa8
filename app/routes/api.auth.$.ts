import type { RouterContextProvider } from "react-router";

import type { Route } from "./+types/api.auth.$";
import { getAuth, getAuthRateLimiter } from "../lib/auth/auth.server.ts";
import { AUTH_BODY_LIMIT, openEndpoint } from "../lib/auth/endpoints.ts";
import { AuthError, jsonAnswer, toAuthError } from "../lib/auth/errors.server.ts";
import { assertSameOrigin, clientIpOf } from "../lib/auth/request-guards.server.ts";
import { readBodyWithLimit } from "@cms-site/page-cache";
import { configContext, logContext, markDynamic } from "../lib/request-context.server.ts";

const BASE_PATH = "/api/auth";

/**
 * better-auth's HTTP API under /api/auth/*: only the endpoints the site uses (endpoints.ts;
 * 404 for the rest), behind the same origin check and rate limit as the forms, and with a
 * body read through the limiter before better-auth sees it (it would read any size). Refusals
 * here and in the site's endpoints answer from one table (error-codes.ts).
 */
async function handle(request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  const path = new URL(request.url).pathname.slice(BASE_PATH.length);
  const endpoint = openEndpoint(request.method, path);
  if (!endpoint) return jsonAnswer(new AuthError("NOT_FOUND"));
  if (request.method !== "POST") return getAuth(context).handler(request);

  try {
    assertSameOrigin(request, context.get(configContext).APP_PUBLIC_URL);
    if (endpoint.budget) await getAuthRateLimiter(context).hit(clientIpOf(request), endpoint.budget);
    const body = await readBodyWithLimit(request, AUTH_BODY_LIMIT);
    const headers = new Headers(request.headers);
    headers.delete("content-length");
    headers.delete("transfer-encoding");
    return await getAuth(context).handler(
      new Request(request.url, { method: "POST", headers, body, signal: request.signal }),
    );
  } catch (error) {
    const refused = toAuthError(error, context.get(logContext));
    if (!refused) throw error;
    return jsonAnswer(refused);
  }
}

export function loader({ request, context }: Route.LoaderArgs) {
  markDynamic(context);
  return handle(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  markDynamic(context);
  return handle(request, context);
}
