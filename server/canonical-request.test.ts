import { describe, expect, it } from "vitest";

import { routeLetterCase } from "../app/lib/canonical-url.ts";
import { canonicalRequests, canonicalTarget, routePathsOf } from "./canonical-request.ts";

const letterCase = routeLetterCase(["account", ":lang/account", "uploads/*", "*"]);

describe("canonicalTarget", () => {
  it.each([
    ["/account", { status: 200 }],
    ["/Account?tab=2", { status: 308, location: "/account?tab=2" }],
    ["/DE/ACCOUNT.data?_routes=x", { status: 308, location: "/DE/account.data?_routes=x" }],
    ["/Uploads/A.JPG", { status: 308, location: "/uploads/A.JPG" }],
    ["/About", { status: 200 }],
    ["//about/", { status: 308, location: "/about" }],
  ])("%s: %j", (url, verdict) => {
    expect(canonicalTarget(url, letterCase)).toEqual(verdict);
  });

  it.each(["/about#session", "/about?x=1#session", "/#", "/about%23session#"])(
    "%s (a raw '#') is a 400, never looked up as it is",
    (url) => {
      expect(canonicalTarget(url, letterCase)).toMatchObject({ status: 400, reason: expect.stringMatching(/#/) });
    },
  );

  it("an encoded '#' is a character of the path, canonical as it is", () => {
    expect(canonicalTarget("/about%23session", letterCase)).toEqual({ status: 200 });
  });
});

describe("routePathsOf and canonicalRequests", () => {
  it("reads the full path of each route of a build, parents included", () => {
    const routes = {
      root: { id: "root", path: "" },
      account: { id: "account", parentId: "root", path: "account" },
      settings: { id: "settings", parentId: "account", path: "settings/:tab" },
      home: { id: "home", parentId: "root" },
    };
    expect(routePathsOf(routes)).toEqual(["", "account", "account/settings/:tab", ""]);
    const { isCanonical } = canonicalRequests(routePathsOf(routes));
    expect(isCanonical("/account/settings/Mail")).toBe(true);
    expect(isCanonical("/Account/Settings/Mail")).toBe(false);
    expect(isCanonical("/account#x")).toBe(false);
  });
});
