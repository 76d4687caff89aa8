import type { Route } from "./+types/api.auth.$";
import { getAuth, getAuthRateLimiter } from "../lib/auth/auth.server.ts";
import { AuthError } from "../lib/auth/errors.server.ts";
import { assertSameOrigin, clientIpOf } from "../lib/auth/request-guards.server.ts";
import { getEnv } from "../lib/env.server.ts";
import { markDynamic } from "../lib/request-context.server.ts";

/** better-auth's HTTP API under /api/auth/*, behind the same origin check and rate limit as the forms. */
async function handle(request: Request): Promise<Response> {
  if (request.method === "POST") {
    try {
      assertSameOrigin(request, getEnv().APP_PUBLIC_URL);
      await getAuthRateLimiter().hit(clientIpOf(request), new URL(request.url).pathname);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return Response.json({ code: error.code, message: error.message }, { status: error.status });
    }
  }
  return getAuth().handler(request);
}

export function loader({ request, context }: Route.LoaderArgs) {
  markDynamic(context);
  return handle(request);
}

export function action({ request, context }: Route.ActionArgs) {
  markDynamic(context);
  return handle(request);
}
