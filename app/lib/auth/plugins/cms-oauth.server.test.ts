import { afterEach, describe, expect, it, vi } from "vitest";

import { memoryLog } from "../../../../tests/support/memory-log.ts";
import { endReplacedCmsSession } from "./cms-oauth.server.ts";

// docs/security.md, finding 37: a re-sync (/sync-oauth-cms) ends the CMS session it replaced.
describe("endReplacedCmsSession", () => {
  afterEach(() => vi.restoreAllMocks());

  it("ends the replaced token's own CMS session (Strapi's logout of that token, not all)", async () => {
    const endSessions = vi.fn(async () => "done" as const);
    await endReplacedCmsSession({ endSessions }, "old-jwt", memoryLog());
    expect(endSessions).toHaveBeenCalledExactlyOnceWith("old-jwt", "this");
  });

  it("best effort: a CMS that fails is logged, and the re-sync still answers", async () => {
    const log = memoryLog();
    const endSessions = vi.fn(async () => {
      throw new Error("CMS down");
    });
    await expect(endReplacedCmsSession({ endSessions }, "old-jwt", log)).resolves.toBeUndefined();
    expect(log.messages("warn")).toEqual([expect.stringContaining("CMS down")]);
  });
});
