import type { Route } from "./+types/api.cms-revalidate";
import { getEnv } from "../lib/env.server.ts";
import { localeConfig } from "../lib/locales.server.ts";
import { revalidatorContext } from "../lib/request-context.server.ts";
import { handleRevalidation } from "../lib/revalidation/handle-revalidation.server.ts";

/** Called by the CMS when content changes: marks cached pages and CMS data stale. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return Response.json({ error: "Use POST." }, { status: 405, headers: { allow: "POST" } });
  }
  return handleRevalidation(request, {
    secret: getEnv().CMS_REVALIDATE_SECRET,
    revalidator: context.get(revalidatorContext),
    locales: localeConfig(),
  });
}

export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { allow: "POST" } });
}
