import { expect } from "vitest";

/** A GET to the site, or to the CDN in front of it, without following redirects: what tests read of the answer. */
export async function getPage(base: string, pagePath: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${pagePath}`, { headers, redirect: "manual" });
  return {
    response,
    status: response.status,
    headers: response.headers,
    cache: response.headers.get("x-cache"),
    cdn: response.headers.get("x-cdn-cache"),
    location: response.headers.get("location"),
    text: await response.text(),
  };
}

/**
 * What the CMS sends after a write (docs/cms-contract.md, "Events"): POST /api/cms-revalidate with
 * the shared secret. Expects 200; returns the site's answer.
 */
export async function postRevalidation(
  base: string,
  secret: string,
  next: { fullPaths?: string[]; tags?: string[]; expire?: boolean },
  uid = "api::page.page",
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}/api/cms-revalidate`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ uid, next }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { paths: string[]; tags: string[]; expire: boolean };
}

/** A JSON POST to the site from its own origin (as its forms and the auth client send them). */
export function postToSite(
  base: string,
  apiPath: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${apiPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * A sign-in through the site's JSON endpoint, with the browser's `cookie` header if one is given:
 * its status, the auth answer's code and message, and the cookies it set (`name=value`).
 */
export async function signInToSite(base: string, email: string, password: string, cookie?: string) {
  const response = await postToSite(base, "/api/auth/sign-in-cms", { email, password }, cookie ? { cookie } : {});
  return {
    status: response.status,
    body: (await response.json()) as { code?: string; message?: string },
    cookies: response.headers.getSetCookie().map((line) => line.split(";")[0]!),
  };
}
