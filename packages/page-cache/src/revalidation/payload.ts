import { MAX_PATH_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from "@cms-site/cache-tags";
import * as z from "zod";

/** The payload the CMS sends to /api/cms-revalidate (docs/cms-contract.md, "Revalidation payload"). */

const MAX_ITEMS = MAX_TAGS;

const sitePath = z
  .string()
  .max(MAX_PATH_LENGTH, `must be at most ${MAX_PATH_LENGTH} characters`)
  .startsWith("/", "must start with /")
  .refine((path) => !path.slice(0, -1).includes("*") && (!path.endsWith("*") || path.endsWith("/*")), {
    message: "may contain * only as a last segment (/jobs/*)",
  })
  .refine((path) => !/[\s?#]/.test(path), { message: "must be a path: no spaces, query or fragment" });

const tag = z
  .string()
  .min(1, "must not be empty")
  .max(MAX_TAG_LENGTH, `must be at most ${MAX_TAG_LENGTH} characters`)
  .refine((value) => !/[\s,]/.test(value), { message: "must not contain spaces or commas" });

export const revalidationPayloadSchema = z.object({
  uid: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .regex(/^api::[a-z0-9-]+\.[a-z0-9-]+$/, "must look like api::<name>.<name>"),
  next: z
    .object(
      {
        fullPaths: z.array(sitePath).max(MAX_ITEMS, `must list at most ${MAX_ITEMS} paths`).optional(),
        tags: z.array(tag).max(MAX_ITEMS, `must list at most ${MAX_ITEMS} tags`).optional(),
        /**
         * true: expire rather than mark stale (the CMS sends it on unpublish and delete): the
         * next visitor gets a fresh render (404, redirect), never the old page. Default false:
         * stale-while-revalidate.
         */
        expire: z.boolean({ error: "must be true or false" }).optional(),
      },
      { error: (issue) => (issue.input === undefined ? "is required" : "must be an object") },
    )
    .refine((next) => (next.fullPaths?.length ?? 0) + (next.tags?.length ?? 0) > 0, {
      message: "must list at least one of fullPaths or tags",
    }),
  /**
   * When the CMS committed the write (ms since the epoch; the earliest of a batch): the start of
   * publish_to_visible_seconds (cache/publish-clock.ts). Optional.
   */
  committedAt: z
    .number({ error: "must be a number of milliseconds since the epoch" })
    .int("must be a whole number of milliseconds")
    .positive("must be a time after the epoch")
    .optional(),
  /** How many writes the CMS merged into this request (its log shows it; decision 0028). */
  batched: z.number().int().min(1).max(10_000).optional(),
});

export type RevalidationPayload = z.infer<typeof revalidationPayloadSchema>;

/** One readable line per problem: `next.fullPaths.0: must start with /`. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
}
