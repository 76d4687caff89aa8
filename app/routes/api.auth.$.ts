import type { Route } from "./+types/api.auth.$";
import { getAuth, getAuthRateLimiter } from "../lib/auth/auth.server.ts";
import { AUTH_BODY_LIMIT, openEndpoint } from "../lib/auth/endpoints.ts";
import { AuthError } from "../lib/auth/errors.server.ts";
import { assertSameOrigin, clientIpOf } from "../lib/auth/request-guards.server.ts";
import { getEnv } from "../lib/env.server.ts";
import { BodyTooLargeError, readBodyWithLimit } from "../lib/read-body.server.ts";
import { markDynamic } from "../lib/request-context.server.ts";

const BASE_PATH = "/api/auth";

function answer(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return Response.json({ code, message }, { status, headers: { "cache-control": "no-store", ...headers } });
}

/**
 * better-auth's HTTP API under /api/auth/*: only the endpoints the site uses (endpoints.ts;
 * 404 for the rest), behind the same origin check and rate limit as the forms, and with a
 * body read through the limiter before better-auth sees it (it would read any size).
 */
async function handle(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.slice(BASE_PATH.length);
  const endpoint = openEndpoint(request.method, path);
  if (!endpoint) return answer(404, "NOT_FOUND", "There is no such auth endpoint.");
  if (request.method !== "POST") return getAuth().handler(request);

  try {
    assertSameOrigin(request, getEnv().APP_PUBLIC_URL);
    if (endpoint.budget) await getAuthRateLimiter().hit(clientIpOf(request), endpoint.budget);
    const body = await readBodyWithLimit(request, AUTH_BODY_LIMIT);
    const headers = new Headers(request.headers);
    headers.delete("content-length");
    headers.delete("transfer-encoding");
    return await getAuth().handler(new Request(request.url, { method: "POST", headers, body, signal: request.signal }));
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      return answer(413, "BODY_TOO_LARGE", `The body is too large: at most ${AUTH_BODY_LIMIT} bytes.`, { connection: "close" });
    }
    if (!(error instanceof AuthError)) throw error;
    return answer(error.status, error.code, error.message);
  }
}

export function loader({ request, context }: Route.LoaderArgs) {
  markDynamic(context);
  return handle(request);
}

export function action({ request, context }: Route.ActionArgs) {
  markDynamic(context);
  return handle(request);
}
