import type { Route } from "./+types/api.cms-proxy.$";
import { getServerSession } from "../lib/auth/session.server.ts";
import { CmsError } from "../lib/cms/errors.server.ts";
import { createCmsHttp } from "../lib/cms/http.server.ts";
import { allowedProxyPath } from "../lib/cms/proxy-policy.ts";
import { configContext } from "../lib/request-context.server.ts";

/** The browser's way to make per-user CMS calls (useProxy: true): allowlisted paths only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const noStore = { "cache-control": "private, no-store" };
  // The raw path, as sent (percent-encoding intact), is what the allowlist judges.
  const path = allowedProxyPath(request.method, new URL(request.url).pathname.replace(/^\/api\/cms-proxy\//, ""));
  if (!path) {
    return Response.json(
      { error: "This CMS endpoint is not available through the proxy." },
      { status: 404, headers: noStore },
    );
  }
  const { session, setCookies } = await getServerSession(request, context);
  const headers = new Headers(noStore);
  for (const cookie of setCookies) headers.append("set-cookie", cookie);
  if (!session) return Response.json({ error: "Sign in first." }, { status: 401, headers });

  const env = context.get(configContext);
  const cms = createCmsHttp({ baseUrl: env.CMS_URL, timeoutMs: env.CMS_FETCH_TIMEOUT_MS });
  try {
    // The visitor going away stops the call; the answer streams through, status as it is.
    const upstream = await cms.send({
      path: `/api/${path}`,
      credential: { userJWT: session.cmsJWT },
      signal: request.signal,
    });
    // None of the CMS's own headers (cookies, banners, its content type) reach the browser: ours only.
    headers.set("content-type", "application/json");
    return new Response(upstream.body, { status: upstream.status, headers });
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    return Response.json({ error: "The content service is unavailable." }, { status: 503, headers });
  }
}

export function action() {
  return Response.json({ error: "Only GET is proxied." }, { status: 405, headers: { allow: "GET" } });
}
