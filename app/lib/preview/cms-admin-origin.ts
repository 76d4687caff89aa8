import type { Env } from "../env.server.ts";

/**
 * The origin of the CMS admin that shows the site's preview in its iframe (CMS_ADMIN_URL, else
 * CMS_URL): the one origin that may frame a preview answer (server/security-headers.ts) and the one
 * whose messages a preview acts on (app/lib/preview/live-preview.ts).
 */
export function cmsAdminOrigin(env: Pick<Env, "CMS_ADMIN_URL" | "CMS_URL">): string {
  return new URL(env.CMS_ADMIN_URL ?? env.CMS_URL).origin;
}
