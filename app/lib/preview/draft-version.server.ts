import * as z from "zod";

import type { CmsClient, CmsFetchOptions } from "../cms/client.server.ts";
import { CONTENT_TYPES } from "../cms/content.server.ts";
import { CONTENT_TYPE_REST_PATHS } from "../../content-types/modules.server.ts";
import type { PreviewScope } from "./preview-cookie.server.ts";

/**
 * The version of the draft a preview shows: its `updatedAt` in the CMS, which every save of the
 * draft moves (docs/live-preview.md, "A save in the edit view"). A page in preview asks for it
 * every few seconds and runs its loaders again when it changed: Strapi's free edition sends its
 * `strapiUpdate` only on the Preview's Publish, never on a save in the edit view.
 *
 * One small draft read: the document the preview link was signed for, in the locale of the
 * address, one field, never from or into the data cache (a draft read, CmsFetchOptions.draft).
 */

/**
 * Where each type with a Preview button is read (its REST path): the site's routes read the same.
 * The pages', and each content type's `restPath` (app/content-types/<name>/module.server.ts).
 */
const REST_PATHS: Readonly<Record<string, string>> = {
  [CONTENT_TYPES.page]: "/api/pages",
  ...CONTENT_TYPE_REST_PATHS,
};

const versionAnswer = z.object({ data: z.array(z.object({ updatedAt: z.string().nullish() })) });

/**
 * The draft's `updatedAt` of the document `scope` opens, in `locale`; null when the type has no
 * version here (a type without drafts, or one this list does not name) or the draft is gone.
 */
export async function draftVersion(
  cms: CmsClient,
  scope: PreviewScope,
  locale: string,
  draft: NonNullable<CmsFetchOptions["draft"]>,
): Promise<string | null> {
  const path = REST_PATHS[scope.type];
  if (!path || !scope.document) return null;
  const { data } = await cms.get(path, versionAnswer, {
    draft,
    type: scope.type,
    query: {
      filters: { documentId: { $eq: scope.document } },
      locale,
      fields: ["updatedAt"],
      pagination: { pageSize: 1 },
    },
    omitUserAuthorization: true,
  });
  return data[0]?.updatedAt ?? null;
}
