import { expect } from "vitest";

import { SITE_SECRET_HEADERS } from "./site-secret.ts";
/**
 * Registers a user directly in the CMS (test setup, not through the site); the answer's JWT and user.
 * It carries the site's X-Site-Secret (site-secret.ts), as the CMS's account API guard wants.
 */
export async function registerCmsUser(cmsUrl: string, email: string, password: string) {
  const response = await fetch(`${cmsUrl}/api/auth/local/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
    body: JSON.stringify({ username: email, email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { jwt: string; user: { id: number; email: string } };
}
