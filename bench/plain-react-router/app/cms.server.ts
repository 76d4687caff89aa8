/** The same CMS calls the site makes for a page (navbar, footer, the page), with no cache of any kind. */
const cmsUrl = () => process.env.CMS_URL ?? "http://127.0.0.1:1337";

export async function cmsJson<T>(path: string, query: Record<string, string>): Promise<T> {
  const response = await fetch(`${cmsUrl()}${path}?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${process.env.CMS_REST_READONLY_API_KEY ?? ""}` },
  });
  if (!response.ok) throw new Response("CMS error", { status: 502 });
  return (await response.json()) as T;
}

export interface Link {
  label: string;
  url: string;
}
