import type { Route } from "./+types/uploads.$";
import { proxyUpload } from "../lib/cms/media-proxy.server.ts";
import { configContext } from "../lib/request-context.server.ts";

/** GET/HEAD /uploads/*: the CMS's uploaded files, streamed (app/lib/cms/media-proxy.server.ts). */
export function loader({ request, context }: Route.LoaderArgs) {
  const env = context.get(configContext);
  return proxyUpload(request, { cmsUrl: env.CMS_URL, timeoutMs: env.CMS_FETCH_TIMEOUT_MS });
}
