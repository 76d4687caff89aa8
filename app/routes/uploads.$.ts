import type { Route } from "./+types/uploads.$";
import { proxyVariant } from "../lib/cms/image-variant-proxy.server.ts";
import { parseVariantRequest } from "../lib/cms/image-variants.ts";
import { proxyUpload } from "../lib/cms/media-proxy.server.ts";
import { configContext, imageVariantsContext, logContext } from "../lib/request-context.server.ts";

/**
 * GET/HEAD /uploads/*: the CMS's uploaded files, streamed (app/lib/cms/media-proxy.server.ts), and
 * their AVIF and WebP variants at the declared widths, `/uploads/_w<width>/<file>.<format>`
 * (app/lib/cms/image-variant-proxy.server.ts).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const env = context.get(configContext);
  const config = { cmsUrl: env.CMS_URL, timeoutMs: env.CMS_FETCH_TIMEOUT_MS, log: context.get(logContext) };
  const wanted = parseVariantRequest(new URL(request.url));
  if (wanted) return proxyVariant(request, wanted, { ...config, variants: context.get(imageVariantsContext) });
  return proxyUpload(request, config);
}
