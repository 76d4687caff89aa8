import type { PublishClock } from "../cache/publish-clock.ts";
import type { RevalidationProfile, Revalidator } from "./revalidator.ts";
import { jsonAnswer, readSecuredJson } from "../http/secured-json-post.ts";
import { describeIssues, revalidationPayloadSchema } from "./payload.ts";

/** A revalidation request is a few paths and tags; anything bigger is a mistake or an attack. */
export const REVALIDATION_BODY_LIMIT = 64 * 1024;

export interface RevalidationDeps {
  secret: string | undefined;
  revalidator: Revalidator;
  /**
   * The paths that answer the same page as a path the CMS names (the site's locale variants:
   * `/careers` and `/en/careers`); the path alone by default.
   */
  pathVariants?: (path: string) => readonly string[];
  /**
   * With a CDN that is purged: renders the stale cached pages of these paths again before the
   * answer, so the purge that follows makes the CDN fetch the new page (decision 0028).
   */
  refresh?: (paths: readonly string[]) => Promise<number>;
  /** Remembers the payload's commit time for publish_to_visible_seconds. */
  publishClock?: Pick<PublishClock, "revalidated">;
  /** Refusals, and one line per revalidation with its fields (uid, paths, tags, expire, result). */
  log?: (line: string, fields?: Record<string, unknown>) => void;
}

/**
 * POST /api/cms-revalidate, in the order docs/cms-contract.md ("Front-end revalidation endpoint") sets: configured? → secret (constant
 * time, before the body is touched) → size → JSON → payload → locale variants → revalidate
 * ("max", or `{ expire: 0 }` when the payload says `expire: true`) → shared with the other
 * instances → 200. The 200 comes after the invalidations were applied here and handed to
 * Redis: a CDN purge sent once it is received cannot fetch the old page back
 * (docs/decisions/0010-takedowns-expire.md).
 */
export async function handleRevalidation(request: Request, deps: RevalidationDeps): Promise<Response> {
  const log = deps.log ?? (() => undefined);
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

  const { uid, next, committedAt } = parsed.data;
  const paths = [...new Set((next.fullPaths ?? []).flatMap((path) => deps.pathVariants?.(path) ?? [path]))];
  const tags = [...new Set(next.tags ?? [])];
  const expire = next.expire === true;
  const profile: RevalidationProfile = expire ? { expire: 0 } : "max";
  if (!expire) deps.publishClock?.revalidated(paths, committedAt);
  for (const path of paths) deps.revalidator.revalidatePath(path, profile);
  for (const tag of tags) deps.revalidator.revalidateTag(tag, profile);
  await deps.revalidator.shared?.();
  // A takedown's pages are expired: their next visitor renders them (or their 404) anyway.
  const rendered = !expire && deps.refresh ? await deps.refresh(paths) : 0;

  log(
    `[revalidate] uid=${uid} paths=${paths.join(",") || "-"} tags=${tags.join(",") || "-"} ${expire ? "expire" : "stale"}` +
      (parsed.data.batched ? ` batched=${parsed.data.batched}` : "") +
      (deps.refresh && !expire ? ` rendered=${rendered}` : ""),
    { event: "revalidation", uid, paths, tags, expire, rendered, result: "revalidated" },
  );
  return jsonAnswer(
    { revalidated: true, uid, paths, tags, expire, ...(deps.refresh && !expire ? { rendered } : {}) },
    200,
  );
}
