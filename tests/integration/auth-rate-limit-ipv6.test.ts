import { describe, expect, it } from "vitest";

import { postToSite } from "../support/site-requests.ts";
import { standInSite } from "../support/stand-in-site.ts";

/**
 * Per-IP budgets for IPv6 clients (finding 32), through the production site: an IPv6 client
 * is counted by its /64, which one home line or server holds whole, and an IPv4-mapped address
 * (how a dual-stack listener sees IPv4 clients) as its IPv4 client. TRUST_PROXY=loopback lets
 * the test speak from the addresses it names (X-Forwarded-For). Each sign-in names another
 * address, so the per-account lockout stays out of the way.
 */
const site = standInSite({
  seed: (cms) => cms.setPage({ fullPath: "/", title: "Home" }),
  env: { AUTH_RATE_LIMIT_MAX: "3", TRUST_PROXY: "loopback" },
});

let nextEmail = 1;

async function signInFrom(client: string): Promise<number> {
  const body = { email: `guest-${nextEmail++}@example.com`, password: "Wrong-password-1" };
  const response = await postToSite(site.app.url, "/api/auth/sign-in-cms", body, { "x-forwarded-for": client });
  return response.status;
}

describe("per-IP budgets of IPv6 clients", () => {
  it("addresses in one /64 share one budget; another /64 has its own", async () => {
    const statuses = [];
    for (const client of ["2001:db8:0:1::1", "2001:db8:0:1::2", "2001:db8:0:1:ffff:ffff:ffff:fffe"]) {
      statuses.push(await signInFrom(client));
    }
    expect(statuses).toEqual([401, 401, 401]);
    // A fourth address of that /64, in another spelling: the budget is spent.
    expect(await signInFrom("2001:0DB8:0000:0001:abcd::3")).toBe(429);
    expect(await signInFrom("2001:db8:0:2::1")).toBe(401);
  });

  it("an IPv4-mapped address is its IPv4 client, and IPv4 clients do not share a budget", async () => {
    for (let i = 0; i < 3; i++) expect(await signInFrom("203.0.113.5")).toBe(401);
    expect(await signInFrom("::ffff:203.0.113.5")).toBe(429);
    expect(await signInFrom("::ffff:203.0.113.6")).toBe(401);
    expect(await signInFrom("203.0.113.6")).toBe(401);
  });
});
