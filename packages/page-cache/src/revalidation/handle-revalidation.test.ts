import { describe, expect, it } from "vitest";

import type { RevalidationProfile, Revalidator } from "./revalidator.ts";
import { handleRevalidation } from "./handle-revalidation.ts";
import { revalidationPayloadSchema } from "./payload.ts";

const SECRET = "revalidate-secret-0123456789";
/**
 * A site's locale variants (its default locale's pages answer with and without `/en`), as simple
 * as the tests need: `/careers` is also `/en/careers`. The site's own rule is tested with the site.
 */
const pathVariants = (path: string) => (path.startsWith("/en") ? [path] : [`/en${path}`, path]);
const quiet = () => {};

describe("revalidation payload: expire", () => {
  const next = { fullPaths: ["/careers"] };

  it("is optional, and a boolean when given", () => {
    expect(revalidationPayloadSchema.parse({ uid: "api::page.page", next }).next.expire).toBeUndefined();
    expect(
      revalidationPayloadSchema.parse({ uid: "api::page.page", next: { ...next, expire: true } }).next.expire,
    ).toBe(true);
    expect(
      revalidationPayloadSchema.parse({ uid: "api::page.page", next: { ...next, expire: false } }).next.expire,
    ).toBe(false);
    for (const expire of ["yes", 1, null, { expire: 0 }]) {
      const parsed = revalidationPayloadSchema.safeParse({ uid: "api::page.page", next: { ...next, expire } });
      expect(parsed.success, JSON.stringify(expire)).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ path: ["next", "expire"], message: "must be true or false" });
    }
  });

  it("does not stand in for fullPaths or tags", () => {
    expect(revalidationPayloadSchema.safeParse({ uid: "api::page.page", next: { expire: true } }).success).toBe(false);
  });
});

/** A revalidator that records what it was asked, and when its sharing finished. */
function recorder() {
  const events: string[] = [];
  let release = () => {};
  const sharing = new Promise<void>((resolve) => (release = resolve));
  const name = (profile: RevalidationProfile | undefined) =>
    profile === undefined || profile === "max" ? "max" : "expire";
  const revalidator: Revalidator = {
    revalidatePath: (path, profile) => void events.push(`path ${path} ${name(profile)}`),
    revalidateTag: (tag, profile) => void events.push(`tag ${tag} ${name(profile)}`),
    shared: async () => {
      events.push("sharing");
      await sharing;
      events.push("shared");
    },
  };
  return { revalidator, events, release };
}

const post = (body: unknown) =>
  new Request("http://site/api/cms-revalidate", {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("POST /api/cms-revalidate: profiles", () => {
  it("expire: true expires every path variant and tag ({ expire: 0 }), and answers only once they are shared", async () => {
    const { revalidator, events, release } = recorder();
    const answer = handleRevalidation(
      post({
        uid: "api::page.page",
        next: { fullPaths: ["/careers"], tags: ["cms:api::navbar.navbar"], expire: true },
      }),
      { secret: SECRET, revalidator, pathVariants, log: quiet },
    );
    const answered = answer.then((response) => {
      events.push("answered");
      return response;
    });
    // Every pending callback has run (one turn of the event loop): still no answer while sharing.
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toContain("sharing");
    expect(events).not.toContain("answered");
    release();
    const response = await answered;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      revalidated: true,
      uid: "api::page.page",
      paths: ["/en/careers", "/careers"],
      tags: ["cms:api::navbar.navbar"],
      expire: true,
    });
    expect(events).toEqual([
      "path /en/careers expire",
      "path /careers expire",
      "tag cms:api::navbar.navbar expire",
      "sharing",
      "shared",
      "answered",
    ]);
  });

  it("without expire (publish, update): stale-while-revalidate ('max'), as before", async () => {
    const { revalidator, events, release } = recorder();
    release();
    const response = await handleRevalidation(
      post({ uid: "api::navbar.navbar", next: { tags: ["cms:api::navbar.navbar"] } }),
      {
        secret: SECRET,
        revalidator,
        pathVariants,
        log: quiet,
      },
    );
    expect(await response.json()).toMatchObject({ expire: false });
    expect(events).toEqual(["tag cms:api::navbar.navbar max", "sharing", "shared"]);
  });
});

describe("POST /api/cms-revalidate behind a purged CDN (decision 0028)", () => {
  it("renders the revalidated paths again after they are shared and before the answer; remembers the commit time", async () => {
    const { revalidator, events, release } = recorder();
    release();
    const clock: Array<[readonly string[], number | undefined]> = [];
    const response = await handleRevalidation(
      post({ uid: "api::page.page", next: { fullPaths: ["/careers"] }, committedAt: 1_700_000_000_000, batched: 3 }),
      {
        secret: SECRET,
        revalidator,
        pathVariants,
        log: quiet,
        publishClock: { revalidated: (paths, committedAt) => void clock.push([paths, committedAt]) },
        refresh: async (paths) => {
          events.push(`refresh ${paths.join(",")}`);
          return paths.length;
        },
      },
    );
    expect(await response.json()).toMatchObject({ paths: ["/en/careers", "/careers"], rendered: 2 });
    expect(events).toEqual([
      "path /en/careers max",
      "path /careers max",
      "sharing",
      "shared",
      "refresh /en/careers,/careers",
    ]);
    expect(clock).toEqual([[["/en/careers", "/careers"], 1_700_000_000_000]]);
  });

  it("a takedown is not rendered again (expired: its next visitor renders it), nor measured", async () => {
    const { revalidator, events, release } = recorder();
    release();
    const clock: unknown[] = [];
    const response = await handleRevalidation(
      post({ uid: "api::page.page", next: { fullPaths: ["/careers"], expire: true }, committedAt: 1 }),
      {
        secret: SECRET,
        revalidator,
        pathVariants,
        log: quiet,
        publishClock: { revalidated: (...args) => void clock.push(args) },
        refresh: async () => {
          events.push("refresh");
          return 1;
        },
      },
    );
    expect(await response.json()).not.toHaveProperty("rendered");
    expect(events).not.toContain("refresh");
    expect(clock).toEqual([]);
  });

  it("committedAt and batched are checked: anything but whole positive numbers is a 400", async () => {
    const { revalidator } = recorder();
    for (const extra of [{ committedAt: "now" }, { committedAt: -5 }, { committedAt: 1.5 }, { batched: 0 }]) {
      const response = await handleRevalidation(
        post({ uid: "api::page.page", next: { fullPaths: ["/careers"] }, ...extra }),
        { secret: SECRET, revalidator, pathVariants, log: quiet },
      );
      expect(response.status, JSON.stringify(extra)).toBe(400);
    }
  });
});
