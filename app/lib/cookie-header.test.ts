import { describe, expect, it } from "vitest";

import { carriesCookie, cookieValueOf } from "./cookie-header.ts";

describe("cookieValueOf", () => {
  it("finds the named cookie among others, trimmed, values with '=' whole", () => {
    expect(cookieValueOf("a=1; site_preview=x.y=z ;b=2", "site_preview")).toBe("x.y=z");
    expect(cookieValueOf("site_preview=", "site_preview")).toBe("");
  });

  it("takes the first of a name (the longest path), and only that exact name", () => {
    expect(cookieValueOf("n=first; n=second", "n")).toBe("first");
    expect(cookieValueOf("xn=1; n2=2; =3", "n")).toBeUndefined();
  });

  it("is undefined without a header", () => {
    expect(cookieValueOf(null, "n")).toBeUndefined();
    expect(cookieValueOf(undefined, "n")).toBeUndefined();
    expect(cookieValueOf("", "n")).toBeUndefined();
  });
});

describe("carriesCookie", () => {
  it("is true for exactly that name with a value, wherever it sits in the header", () => {
    expect(carriesCookie("_ga=1; __Host-better-auth.session_token=a.b", "__Host-better-auth.session_token")).toBe(true);
    expect(carriesCookie("n=v", "n")).toBe(true);
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
});
