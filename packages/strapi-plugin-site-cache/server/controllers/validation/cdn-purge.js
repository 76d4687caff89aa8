"use strict";

const z = require("zod");

/**
 * What an admin may ask the CDN purge action for: some site paths (`/company`), some cache
 * tags, or everything. The same shape the front end's POST /api/cdn-purge takes.
 */
const bodySchema = z
  .object({
    paths: z
      .array(
        z
          .string()
          .max(2048)
          .startsWith("/", "must start with /")
          .refine((p) => !/[\s#]/.test(p), "must be a path"),
      )
      .max(100)
      .optional(),
    tags: z
      .array(
        z
          .string()
          .min(1)
          .max(256)
          .refine((t) => !/[\s,]/.test(t), "must not contain spaces or commas"),
      )
      .max(100)
      .optional(),
    everything: z.literal(true).optional(),
  })
  .strict()
  .refine((body) => body.everything || (body.paths?.length ?? 0) + (body.tags?.length ?? 0) > 0, {
    message: "give paths, tags, or everything: true",
  });

/** { value } or { errors: [{ path, message }] } */
function validatePurgeBody(body) {
  const parsed = bodySchema.safeParse(body ?? {});
  if (parsed.success) return { value: parsed.data };
  return { errors: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) };
}

module.exports = { validatePurgeBody };
