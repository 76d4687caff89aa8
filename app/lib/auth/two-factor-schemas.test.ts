import { describe, expect, it } from "vitest";

import { fieldErrorsOf } from "./schemas.ts";
import { twoFactorCodeSchema, twoFactorDisableSchema } from "./two-factor-schemas.ts";

describe("two-factor fields", () => {
  it("a code loses the spaces apps show (123 456); a recovery code keeps its dash for the CMS", () => {
    expect(twoFactorCodeSchema.parse({ code: " 123 456 " })).toEqual({ code: "123456" });
    expect(twoFactorCodeSchema.parse({ code: "abcde-fghij" })).toEqual({ code: "abcde-fghij" });
  });

  it("refuses a missing or overlong code, and a missing password, in the page's words", () => {
    const empty = twoFactorDisableSchema.safeParse({ currentPassword: "", code: "   " });
    expect(empty.success).toBe(false);
    expect(fieldErrorsOf(empty.error!.issues, "de")).toEqual({
      currentPassword: "Geben Sie Ihr Passwort ein.",
      code: "Geben Sie den Code ein.",
    });
    const long = twoFactorCodeSchema.safeParse({ code: "1".repeat(33) });
    expect(fieldErrorsOf(long.error!.issues)).toEqual({
      code: "This code is too long: enter the 6 digits, or a recovery code.",
    });
  });
});
