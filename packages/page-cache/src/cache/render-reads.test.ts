import { describe, expect, it } from "vitest";

import { DataCache } from "./data-cache.ts";
import { Invalidations } from "./invalidations.ts";
import { MemoryStore } from "./memory-store.ts";
import { cachedRead, RenderReads } from "./render-reads.ts";

describe("what a render's loaders record", () => {
  const setup = () => {
    const invalidations = new Invalidations();
    const dataCache = new DataCache(new MemoryStore<unknown>(1_000_000), invalidations);
    let fetches = 0;
    const read = (reads: RenderReads, cached = true) =>
      cachedRead({
        reads,
        dataCache: cached ? dataCache : undefined,
        key: "/api/notes?slug=hello",
        tags: ["cms:api::note.note:list:*"],
        revalidate: 60,
        fetch: async () => ({ documentId: "n1", fetch: ++fetches }),
        tagsOf: (note) => [`cms:api::note.note:${note.documentId}`],
      });
    return { invalidations, read, fetches: () => fetches };
  };

  it("a hit records the tags the fetch learnt from its answer, without fetching again", async () => {
    const { read, fetches } = setup();
    for (let render = 0; render < 2; render++) {
      const reads = new RenderReads();
      expect(await read(reads)).toEqual({ documentId: "n1", fetch: 1 });
      expect(reads.summary(300)).toEqual({
        tags: ["cms:api::note.note:list:*", "cms:api::note.note:n1"],
        revalidate: 60,
        dynamic: false,
      });
    }
    expect(fetches()).toBe(1);
  });

  it("a document's tag, once revalidated, makes the next read fetch afresh", async () => {
    const { read, invalidations, fetches } = setup();
    await read(new RenderReads());
    invalidations.revalidateTag("cms:api::note.note:n1");
    expect(await read(new RenderReads())).toEqual({ documentId: "n1", fetch: 2 });
    expect(fetches()).toBe(2);
  });

  it("without a data cache every read fetches, and is recorded all the same", async () => {
    const { read, fetches } = setup();
    const reads = new RenderReads();
    await read(reads, false);
    await read(reads, false);
    expect(fetches()).toBe(2);
    expect(reads.summary(300).tags).toEqual(["cms:api::note.note:list:*", "cms:api::note.note:n1"]);
  });

  it("the summary: the shortest interval, and personal when one read was per user or the render said so", () => {
    const reads = new RenderReads();
    expect(reads.summary(300)).toEqual({ tags: [], revalidate: 300, dynamic: false });
    reads.record({ tags: ["a"], revalidate: 30 });
    reads.record({ tags: ["a", "b"], revalidate: 120, perUser: true });
    expect(reads.summary(300)).toEqual({ tags: ["a", "b"], revalidate: 30, dynamic: true });
    const session = new RenderReads();
    session.dynamic = true;
    expect(session.summary(300).dynamic).toBe(true);
  });
});
