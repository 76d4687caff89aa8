import { describe, expect, it } from "vitest";

import { cookieValueOf } from "./cookie-header.ts";

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
