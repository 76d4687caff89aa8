import * as z from "zod";

import { CMS_REVALIDATE, type CmsClient } from "../cms/client.server.ts";
import { CmsError } from "../cms/errors.server.ts";

const countAnswer = z.object({ meta: z.object({ pagination: z.object({ total: z.number() }) }) });

/**
 * How many published documents of a type there are, every locale (0 for a type the CMS does not
 * have): one row asked for, the total read from the pagination. Recorded as the type's list of
 * every locale (rule S4), so whatever joins or leaves it revalidates the count. What the sitemap's
 * ceiling of part files is made from (sitemap.server.ts, sitemapPartsCeiling).
 */
export async function publishedCount(cms: CmsClient, path: string, type: string): Promise<number> {
  try {
    const answer = await cms.get(path, countAnswer, {
      type,
      query: { fields: ["locale"], locale: "*", pagination: { page: 1, pageSize: 1 } },
      revalidate: CMS_REVALIDATE.pageData,
      omitUserAuthorization: true,
    });
    return answer.meta.pagination.total;
  } catch (error) {
    if (error instanceof CmsError && error.kind === "not-found") return 0;
    throw error;
  }
}
