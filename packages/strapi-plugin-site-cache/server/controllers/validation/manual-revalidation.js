"use strict";

const z = require("zod");

/**
 * Body of POST /site-cache/revalidate: either { fullPaths, locale?, uid?, expire? } or
 * { tags, uid?, expire? }. Paths are site paths without locale ('/careers'; the locale, when not
 * the default one, is added by the service) or already locale-prefixed with no locale given
 * ('/en/old-careers'). `expire: true` is a takedown, as an unpublish sends it: the site expires
 * the pages instead of marking them stale, and the CDN is purged after its 200.
 */
const UID = /^api::[a-z0-9-]+\.[a-z0-9-]+$/;
const path = z
  .string()
  .min(1, "must not be empty")
  .max(2048, "must be at most 2048 characters")
  .startsWith("/", "must start with /")
  .refine((p) => !/[\s?#]/.test(p), { message: "must be a path: no spaces, query or fragment" })
  .refine((p) => !p.slice(0, -1).includes("*") && (!p.endsWith("*") || p.endsWith("/*")), {
    message: "may contain * only as a last segment (/jobs/*)",
  });
const tag = z
  .string()
  .min(1, "must not be empty")
  .max(256, "must be at most 256 characters")
  .refine((t) => !/[\s,]/.test(t), { message: "must not contain spaces or commas" });
const uid = z.string().regex(UID, "must look like api::<name>.<name>");
const expire = z.boolean({ error: "must be true or false" });

const byPaths = z.strictObject({
  fullPaths: z.array(path).min(1, "must list at least one path").max(100, "must list at most 100 paths"),
  locale: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, "must be a locale code such as en or de")
    .optional(),
  uid: uid.optional(),
  expire: expire.optional(),
});
const byTags = z.strictObject({
  tags: z.array(tag).min(1, "must list at least one tag").max(100, "must list at most 100 tags"),
  uid: uid.optional(),
  expire: expire.optional(),
});

function describe(error) {
  return error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
}

/**
 * → { value: { uid, fullPaths?, locale?, tags?, expire? } } | { errors: [{ path, message }] }.
 * Without a uid: the type of a `cms:<uid>` tag, else `defaultUid` (the page hierarchy's type), else refused.
 */
function validateManualBody(body, { defaultUid = null } = {}) {
  if (!body || typeof body !== "object" || Array.isArray(body))
    return {
      errors: [
        {
          path: [],
          message: 'The body must be a JSON object: { "fullPaths": [...], "locale"?: "de" } or { "tags": [...] }.',
        },
      ],
    };
  const hasPaths = "fullPaths" in body;
  const hasTags = "tags" in body;
  if (hasPaths === hasTags) {
    return {
      errors: [
        {
          path: [],
          message: hasPaths
            ? "Send either fullPaths or tags, not both."
            : "Send fullPaths (with an optional locale) or tags.",
        },
      ],
    };
  }
  const parsed = (hasPaths ? byPaths : byTags).safeParse(body);
  if (!parsed.success) return { errors: describe(parsed.error) };
  const value = parsed.data;
  if (!value.uid) {
    const fromTag = hasTags ? /^cms:(api::[a-z0-9-]+\.[a-z0-9-]+)$/.exec(value.tags[0])?.[1] : null;
    value.uid = fromTag ?? defaultUid;
  }
  if (!value.uid) return { errors: [{ path: ["uid"], message: "name the content type these belong to (uid)" }] };
  return { value };
}

module.exports = { validateManualBody };
