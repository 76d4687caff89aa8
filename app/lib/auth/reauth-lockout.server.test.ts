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
    expect(await lockout.attempt("someone@example.com", call, () => false)).toBe("done");
    await vi.advanceTimersByTimeAsync(61_000);
    expect(await withPasswordLockout(lockout, "7", "right", call)).toBe("done");
  });

  it("a right password clears the count; no password (a provider sign-in) and other refusals do not count", async () => {
    const lockout = createAccountLockout({ failures: 2 });
    await expect(withPasswordLockout(lockout, "9", "guess", wrong)).rejects.toBeInstanceOf(AuthError);
    await withPasswordLockout(lockout, "9", "right", async () => "done");
    await expect(withPasswordLockout(lockout, "9", "guess", wrong)).rejects.toBeInstanceOf(AuthError);
    for (let i = 0; i < 3; i++) {
      await expect(withPasswordLockout(lockout, "9", undefined, wrong)).rejects.toMatchObject({
        code: "WRONG_CURRENT_PASSWORD",
      });
      await expect(
        withPasswordLockout(lockout, "9", "x", () => Promise.reject(new AuthError("SAME_PASSWORD"))),
      ).rejects.toMatchObject({ code: "SAME_PASSWORD" });
    }
    expect(await withPasswordLockout(lockout, "9", "right", async () => "done")).toBe("done");
  });

  it("a check the CMS did not answer counts: the CMS may have acted on a right password", async () => {
    const lockout = createAccountLockout({ failures: 2 });
    const unanswered = () => Promise.reject(new AuthError("CMS_UNAVAILABLE"));
    for (let i = 0; i < 2; i++) {
      await expect(withPasswordLockout(lockout, "10", "guess", unanswered)).rejects.toMatchObject({
        code: "CMS_UNAVAILABLE",
      });
    }
    await expect(withPasswordLockout(lockout, "10", "right", async () => "done")).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
  });

  it("keys are the user id, never an address", () => {
    expect(reauthLockoutKey("12")).toBe("cms-user-id:12");
  });
});

// finding 29: the checks of a stolen session's guesses sent at once.
describe("withPasswordLockout under concurrent guesses", () => {
  it("50 wrong current passwords at once: five reach the CMS, then the right one is refused", async () => {
    const lockout = createAccountLockout();
    const answers: Array<() => void> = [];
    const slowWrong = vi.fn(
      () => new Promise<string>((_, reject) => answers.push(() => reject(new AuthError("WRONG_CURRENT_PASSWORD")))),
    );
    const codes: string[] = [];
    const guesses = Array.from({ length: 50 }, () =>
      withPasswordLockout(lockout, "7", "guess", slowWrong).catch((error: AuthError) => void codes.push(error.code)),
    );
    await vi.waitFor(() => expect(codes).toHaveLength(45));
    expect(new Set(codes)).toEqual(new Set(["RATE_LIMITED"]));
    expect(slowWrong).toHaveBeenCalledTimes(5);

    const right = vi.fn(async () => "done");
    await expect(withPasswordLockout(lockout, "7", "right", right)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    for (const answer of answers) answer();
    await Promise.all(guesses);
    await expect(withPasswordLockout(lockout, "7", "right", right)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(right).not.toHaveBeenCalled();
    expect(codes.filter((code) => code === "WRONG_CURRENT_PASSWORD")).toHaveLength(5);
  });
});
