/**
 * CMS calls from the browser. `useProxy: true` goes through the front end's proxy, which
 * attaches the signed-in visitor's CMS JWT on the server (the JWT never reaches the browser).
 */
export async function cmsFetchFromBrowser(path: string, options: { useProxy: true }): Promise<unknown> {
  if (!options.useProxy) throw new Error("Browser-side CMS calls go through the proxy (useProxy: true).");
  const response = await fetch(`/api/cms-proxy/${path.replace(/^\/?(api\/)?/, "")}`, {
    headers: { accept: "application/json" },
    credentials: "same-origin",
  });
  if (!response.ok) throw new Error(`The CMS proxy answered ${response.status}`);
  return response.json();
}
