import { describe, expect, it } from "vitest";

import { carriesCookie, cookieValueOf, setCookieHeader, setCookieIn } from "./cookies.server.ts";

const LAX = { path: "/", httpOnly: true, sameSite: "lax", secure: false } as const;

describe("cookieValueOf", () => {
  it("finds the named cookie among others, trimmed, values with '=' whole", () => {
    expect(cookieValueOf("a=1; site_preview=x.y=z ;b=2", "site_preview")).toBe("x.y=z");
    expect(cookieValueOf("site_preview=", "site_preview")).toBe("");
  });

  it("takes the first of a name (the longest path), and only that exact name", () => {
    expect(cookieValueOf("n=first; n=second", "n")).toBe("first");
    expect(cookieValueOf("xn=1; n2=2; =3", "n")).toBeUndefined();
    expect(cookieValueOf("__Host-n=1; n=2", "__Host-n")).toBe("1");
    expect(cookieValueOf("n=1", "__Host-n")).toBeUndefined();
  });

  it("lets no later cookie of the name shadow the first: a sibling subdomain's comes after ours", () => {
    // On http a sibling (evil.example.com) may set `acme.two_factor_pending` for the whole domain,
    // with Path=/; the browser sends ours (host-only) and theirs, and ours must be the one read.
    expect(
      cookieValueOf("acme.two_factor_pending=ours; acme.two_factor_pending=theirs", "acme.two_factor_pending"),
    ).toBe("ours");
    // An empty first pair is that cookie, empty: not a reason to read the next one.
    expect(cookieValueOf("n=; n=planted", "n")).toBe("");
  });

  it("skips a pair without '=', and decodes what the writer percent-encoded", () => {
    expect(cookieValueOf("garbage; n=1", "n")).toBe("1");
    expect(cookieValueOf("n=a%3Bb", "n")).toBe("a;b");
  });

  it("is undefined without a header", () => {
    expect(cookieValueOf(null, "n")).toBeUndefined();
    expect(cookieValueOf(undefined, "n")).toBeUndefined();
    expect(cookieValueOf("", "n")).toBeUndefined();
  });

  it("reads no inherited property as a cookie", () => {
    expect(cookieValueOf("a=1", "__proto__")).toBeUndefined();
    expect(cookieValueOf("a=1", "toString")).toBeUndefined();
  });
});

describe("carriesCookie", () => {
  it("is true for exactly that name with a value, wherever it sits in the header", () => {
    expect(carriesCookie("_ga=1; __Host-better-auth.session_token=a.b", "__Host-better-auth.session_token")).toBe(true);
    expect(carriesCookie("n=v", "n")).toBe(true);
  });

  it("is true when any of several names has a value", () => {
    expect(carriesCookie("b=1", "a", "b")).toBe(true);
    expect(carriesCookie("c=1; a=", "a", "b")).toBe(false);
  });

  it("is false for an empty value, another name that contains it, or no header", () => {
    expect(carriesCookie("n=; m=1", "n")).toBe(false);
    expect(carriesCookie("n= ", "n")).toBe(false);
    for (const header of ["xn=1", "n2=1", "__Secure-n=1", "__Host-n=1"])
      expect(carriesCookie(header, "n"), header).toBe(false);
    expect(carriesCookie("better-auth.session_token=a", "__Host-better-auth.session_token")).toBe(false);
    expect(carriesCookie(undefined, "n")).toBe(false);
    expect(carriesCookie(null, "n")).toBe(false);
  });

  it("judges the first pair of the name, as the reader does", () => {
    expect(carriesCookie("n=; n=1", "n")).toBe(false);
    expect(carriesCookie("n=1; n=", "n")).toBe(true);
  });
});

describe("setCookieHeader", () => {
  it("writes the attributes it is given, Max-Age and Expires included", () => {
    expect(setCookieHeader("n", "a.b-c_d", LAX, { maxAge: 300 })).toBe(
      "n=a.b-c_d; Max-Age=300; Path=/; HttpOnly; SameSite=Lax",
    );
    expect(
      setCookieHeader(
        "__Host-n",
        "",
        { path: "/", httpOnly: true, sameSite: "none", secure: true, partitioned: true },
        { maxAge: 0, expires: new Date(0) },
      ),
    ).toBe(
      "__Host-n=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; Partitioned; SameSite=None",
    );
  });

  it("percent-encodes a value that a Cookie header could not carry, and the reader gets it back", () => {
    const header = setCookieHeader("n", "a; b=c", LAX, { maxAge: 1 });
    expect(header.startsWith("n=a%3B%20b%3Dc;")).toBe(true);
    expect(cookieValueOf(header.split(";")[0], "n")).toBe("a; b=c");
  });

  it("refuses a __Host- cookie that is not Secure, and a name that is not a cookie name", () => {
    expect(() => setCookieHeader("__Host-n", "v", LAX, { maxAge: 1 })).toThrow(/must be Secure/);
    expect(() => setCookieHeader("a;b", "v", LAX, { maxAge: 1 })).toThrow(TypeError);
  });
});

describe("setCookieIn", () => {
  it("finds the header that sets the cookie, not one that expires it nor another name", () => {
    const set = setCookieHeader("n", "sealed", LAX, { maxAge: 300 });
    const expired = setCookieHeader("n", "", LAX, { maxAge: 0 });
    const zeroAge = setCookieHeader("n", "stale", LAX, { maxAge: 0 });
    expect(setCookieIn(["xn=1; Path=/", "a=b", expired, set], "n")).toEqual({ header: set, value: "sealed" });
    expect(setCookieIn([expired, zeroAge, "xn=1"], "n")).toBeNull();
    expect(setCookieIn([], "n")).toBeNull();
  });
});
