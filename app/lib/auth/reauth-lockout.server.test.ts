import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { AuthError } from "./errors.server.ts";
import { createAccountLockout } from "./rate-limit.server.ts";
import { reauthLockoutKey, withPasswordLockout } from "./reauth-lockout.server.ts";

// Wrong current passwords on the account page, counted per account (the CMS user id).
describe("withPasswordLockout", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const wrong = () => Promise.reject(new AuthError("WRONG_CURRENT_PASSWORD"));

  it("five wrong passwords lock the account: the right one is refused (429) until the block ends", async () => {
    const lockout = createAccountLockout();
    for (let i = 0; i < 5; i++) {
      await expect(withPasswordLockout(lockout, "7", "guess", wrong)).rejects.toMatchObject({
        code: "WRONG_CURRENT_PASSWORD",
      });
    }
    const call = vi.fn(async () => "done");
    await expect(withPasswordLockout(lockout, "7", "right", call)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      statusCode: 429,
    });
    expect(call).not.toHaveBeenCalled();
    // Another account, and sign-in's keys (addresses), are not locked.
    expect(await withPasswordLockout(lockout, "8", "right", call)).toBe("done");
    await lockout.check("someone@example.com");
    await vi.advanceTimersByTimeAsync(61_000);
    expect(await withPasswordLockout(lockout, "7", "right", call)).toBe("done");
  });

  it("a right password clears the count; no password (a provider sign-in) and other failures do not count", async () => {
    const lockout = createAccountLockout({ failures: 2 });
    await expect(withPasswordLockout(lockout, "9", "guess", wrong)).rejects.toBeInstanceOf(AuthError);
    await withPasswordLockout(lockout, "9", "right", async () => "done");
    await expect(withPasswordLockout(lockout, "9", "guess", wrong)).rejects.toBeInstanceOf(AuthError);
    for (let i = 0; i < 3; i++) {
      await expect(withPasswordLockout(lockout, "9", undefined, wrong)).rejects.toMatchObject({
        code: "WRONG_CURRENT_PASSWORD",
      });
      await expect(
        withPasswordLockout(lockout, "9", "x", () => Promise.reject(new AuthError("CMS_UNAVAILABLE"))),
      ).rejects.toMatchObject({ code: "CMS_UNAVAILABLE" });
    }
    expect(await withPasswordLockout(lockout, "9", "right", async () => "done")).toBe("done");
  });

  it("keys are the user id, never an address", () => {
    expect(reauthLockoutKey("12")).toBe("cms-user-id:12");
  });
});
