import { bearerMatches } from "../bearer-secret.server.ts";
import type { LocaleConfig } from "../locale-path.ts";
import { withDefaultLocaleVariants } from "../locale-path.ts";
import { BodyTooLargeError, readBodyWithLimit } from "../read-body.server.ts";
import type { Revalidator } from "../request-context.server.ts";
import { describeIssues, revalidationPayloadSchema } from "./payload.server.ts";

/** A revalidation request is a few paths and tags; anything bigger is a mistake or an attack. */
export const REVALIDATION_BODY_LIMIT = 64 * 1024;

export interface RevalidationDeps {
  secret: string | undefined;
  revalidator: Revalidator;
  locales: LocaleConfig;
  log?: (line: string) => void;
}

function json(body: unknown, status: number, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

/**
 * POST /api/cms-revalidate, in the order the spec sets: configured? → secret (constant
 * time, before the body is touched) → size → JSON → payload → locale variants → revalidate.
 */
export async function handleRevalidation(request: Request, deps: RevalidationDeps): Promise<Response> {
  const log = deps.log ?? ((line: string) => console.log(line));
  if (!deps.secret) {
    return json(
      { error: "Revalidation is not configured: set CMS_REVALIDATE_SECRET on the front end (and the same value on the CMS)." },
      503,
    );
  }
  if (!bearerMatches(request.headers.get("authorization"), deps.secret)) {
    log("[revalidate] refused: missing or wrong secret");
    // Close the connection: the body (possibly large) is never read.
    return json({ error: "Missing or wrong secret: send Authorization: Bearer <CMS_REVALIDATE_SECRET>." }, 401, {
      "www-authenticate": "Bearer",
      connection: "close",
    });
  }

  let text: string;
  try {
    text = await readBodyWithLimit(request, REVALIDATION_BODY_LIMIT);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    return json({ error: `The body is too large: at most ${REVALIDATION_BODY_LIMIT} bytes.` }, 413, {
      connection: "close",
    });
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json({ error: "The body is not valid JSON." }, 400);
  }
  const parsed = revalidationPayloadSchema.safeParse(body);
  if (!parsed.success) {
    return json({ error: "Invalid revalidation payload.", issues: describeIssues(parsed.error) }, 400);
  }

  const { uid, next } = parsed.data;
  const paths = [...new Set((next.fullPaths ?? []).flatMap((path) => withDefaultLocaleVariants(path, deps.locales)))];
  const tags = [...new Set(next.tags ?? [])];
  for (const path of paths) deps.revalidator.revalidatePath(path);
  for (const tag of tags) deps.revalidator.revalidateTag(tag, "max");

  log(`[revalidate] uid=${uid} paths=${paths.join(",") || "-"} tags=${tags.join(",") || "-"}`);
  return json({ revalidated: true, uid, paths, tags }, 200);
}
