import * as z from "zod";

import type { Env } from "../env.server.ts";
import { createCmsHttp } from "../cms/http.server.ts";

/** What the site hands the CMS for one checked post (cms/src/plugins/forms: POST /api/form-submissions). */
export interface Submission {
  /** The page's documentId and locale, and the form section's component id: the CMS reads the form there. */
  page: string;
  locale: string;
  section: number;
  /** The typed values by field name (the consent as `consent: "yes"`). */
  values: Record<string, string>;
}

/**
 * How long the site waits for the CMS to store a post: longer than a read (CMS_FETCH_TIMEOUT_MS),
 * since a CMS that answers late may still have stored it, and the visitor would send it twice
 * (bench/README.md, "Forms": a burst of 50 clients on a busy machine).
 */
export const STORE_TIMEOUT_MS = 15_000;

const storedSchema = z.object({ data: z.object({ documentId: z.string(), mailStatus: z.string() }) });

/**
 * Stores a submission in the CMS, which mails it after it is stored (and retries while its mail
 * provider is down): resolves once it is stored, whatever becomes of the mail. The call carries
 * X-Site-Secret (CMS_ACCOUNT_API_SECRET): the CMS takes submissions from the site's server only.
 * Throws a CmsError when the CMS is down or refuses it.
 */
export async function storeSubmission(env: Env, submission: Submission) {
  const http = createCmsHttp({
    baseUrl: env.CMS_URL,
    timeoutMs: Math.max(env.CMS_FETCH_TIMEOUT_MS, STORE_TIMEOUT_MS),
    siteSecret: env.CMS_ACCOUNT_API_SECRET,
  });
  const { data } = await http.json({ method: "POST", path: "/api/form-submissions", body: submission }, storedSchema);
  return data;
}
