import { handleCdnPurge } from "../lib/cdn/purge.server.ts";

/** Called by the CMS (or an operator) to evict pages from the CDN at once. */
export function action({ request }: { request: Request }) {
  if (request.method !== "POST") {
    return Response.json({ error: "Use POST." }, { status: 405, headers: { allow: "POST" } });
  }
  return handleCdnPurge(request);
}

export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { allow: "POST" } });
}
