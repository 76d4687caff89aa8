import { describe, expect, it } from "vitest";

import { allowedProxyPath } from "./proxy-policy.ts";

describe("CMS proxy allowlist", () => {
  it("lets the allowlisted endpoint through", () => {
    expect(allowedProxyPath("GET", "users/me")).toBe("users/me");
  });

  it.each([
    ["GET", "users"],
    ["GET", "users/1"],
    ["POST", "users/me"],
    ["GET", "users/me/../../admin/users"],
    ["GET", "users/%2e%2e/admin"],
    ["GET", "users%2Fme"],
    ["GET", "users/me%00"],
    ["GET", "users\\me"],
    ["GET", "users//me"],
    ["GET", "%75sers/me"],
    ["GET", "users/me/"],
    ["GET", "upload/files"],
  ])("refuses %s %s", (method, path) => {
    expect(allowedProxyPath(method, path)).toBeNull();
  });
});
