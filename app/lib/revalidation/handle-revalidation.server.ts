import type { LocaleConfig } from "../locale-path.ts";
import { withDefaultLocaleVariants } from "../locale-path.ts";
import type { Revalidator } from "../request-context.server.ts";
import { jsonAnswer, readSecuredJson } from "../secured-json-post.server.ts";
import { describeIssues, revalidationPayloadSchema } from "./payload.server.ts";

/** A revalidation request is a few paths and tags; anything bigger is a mistake or an attack. */
export const REVALIDATION_BODY_LIMIT = 64 * 1024;

export interface RevalidationDeps {
  secret: string | undefined;
  revalidator: Revalidator;
  locales: LocaleConfig;
  log?: (line: string) => void;
}

/**
 * POST /api/cms-revalidate, in the order the spec sets: configured? → secret (constant
 * time, before the body is touched) → size → JSON → payload → locale variants → revalidate.
 */
export async function handleRevalidation(request: Request, deps: RevalidationDeps): Promise<Response> {
  const log = deps.log ?? ((line: string) => console.log(line));
  const read = await readSecuredJson(request, {
    secret: deps.secret,
    secretName: "CMS_REVALIDATE_SECRET",
    bodyLimit: REVALIDATION_BODY_LIMIT,
    log,
    logPrefix: "[revalidate]",
  });
  if (!read.ok) return read.response;

  const parsed = revalidationPayloadSchema.safeParse(read.body);
  if (!parsed.success) {
    return jsonAnswer({ error: "Invalid revalidation payload.", issues: describeIssues(parsed.error) }, 400);
  }

  const { uid, next } = parsed.data;
  const paths = [...new Set((next.fullPaths ?? []).flatMap((path) => withDefaultLocaleVariants(path, deps.locales)))];
  const tags = [...new Set(next.tags ?? [])];
  for (const path of paths) deps.revalidator.revalidatePath(path);
  for (const tag of tags) deps.revalidator.revalidateTag(tag, "max");

  log(`[revalidate] uid=${uid} paths=${paths.join(",") || "-"} tags=${tags.join(",") || "-"}`);
  return jsonAnswer({ revalidated: true, uid, paths, tags }, 200);
}
