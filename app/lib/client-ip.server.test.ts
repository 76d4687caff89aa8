import { describe, expect, it } from "vitest";

import { rateLimitClientOf } from "./client-ip.server.ts";

describe("rateLimitClientOf: the client a per-IP budget counts", () => {
  it("IPv4 is the address itself; IPv4-mapped IPv6 is that IPv4 address, in any spelling", () => {
    expect(rateLimitClientOf("203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitClientOf("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(rateLimitClientOf("::FFFF:1.2.3.4")).toBe("1.2.3.4");
    expect(rateLimitClientOf("::ffff:102:304")).toBe("1.2.3.4");
    expect(rateLimitClientOf("0:0:0:0:0:ffff:cb00:7107")).toBe("203.0.113.7");
    // Two IPv4 clients behind a dual-stack listener do not share a budget.
    expect(rateLimitClientOf("::ffff:1.2.3.5")).not.toBe(rateLimitClientOf("::ffff:1.2.3.4"));
  });

  it("addresses in one /64 share one key, in one canonical spelling", () => {
    const key = "2001:db8:0:1::/64";
    for (const address of [
      "2001:db8:0:1::1",
      "2001:db8:0:1::2",
      "2001:DB8:0:1:ffff:ffff:ffff:ffff",
      "2001:0db8:0000:0001:abcd:0:0:1",
      "2001:db8:0:1:1:2:3.4.5.6",
      "2001:db8:0:1::1%eth0",
    ]) {
      expect(rateLimitClientOf(address), address).toBe(key);
    }
    expect(rateLimitClientOf("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(rateLimitClientOf("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitClientOf("::")).toBe("0:0:0:0::/64");
  });

  it("different /64 prefixes are different clients", () => {
    expect(rateLimitClientOf("2001:db8:0:2::1")).toBe("2001:db8:0:2::/64");
    expect(rateLimitClientOf("2001:db8:1:1::1")).not.toBe(rateLimitClientOf("2001:db8:0:1::1"));
    expect(rateLimitClientOf("fe80::1")).toBe("fe80:0:0:0::/64");
  });

  it("what is not an address is left as it is", () => {
    expect(rateLimitClientOf("unknown")).toBe("unknown");
    expect(rateLimitClientOf("")).toBe("");
    expect(rateLimitClientOf("2001:db8::1::2")).toBe("2001:db8::1::2");
  });
});
