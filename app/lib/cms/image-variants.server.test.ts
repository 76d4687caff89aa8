import { Registry } from "prom-client";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";

import { createImageVariants, type VariantSpec } from "./image-variants.server.ts";

// The real sharp on real images: what the maker promises (made once, bounded, never enlarged,
// the original when it cannot convert) is about sharp's answers as much as the maker's code.
let png: Uint8Array;

beforeAll(async () => {
  png = await sharp({ create: { width: 400, height: 200, channels: 3, background: "#2563eb" } })
    .png()
    .toBuffer();
});

const spec = (over: Partial<VariantSpec> = {}): VariantSpec => ({
  source: "/uploads/a.png|v1",
  width: 160,
  format: "avif",
  ...over,
});

describe("createImageVariants", () => {
  it("makes an AVIF and a WebP at the width asked, smaller than the PNG", async () => {
    const variants = createImageVariants({ maxBytes: 1024 * 1024 });
    for (const format of ["avif", "webp"] as const) {
      const made = await variants.variant(spec({ format }), async () => png);
      if (made.kind !== "made") throw new Error(`not made: ${made.reason}`);
      expect(made.contentType).toBe(`image/${format}`);
      const meta = await sharp(made.body).metadata();
      expect(meta.width).toBe(160);
      expect(meta.format).toBe(format === "avif" ? "heif" : "webp");
      expect(made.body.length).toBeLessThan(png.length);
    }
  });

  it("never enlarges: a width beyond the original is made at the original's", async () => {
    const variants = createImageVariants({ maxBytes: 1024 * 1024 });
    const made = await variants.variant(spec({ width: 1920, format: "webp" }), async () => png);
    if (made.kind !== "made") throw new Error("not made");
    expect((await sharp(made.body).metadata()).width).toBe(400);
  });

  it("20 requests at once for a new variant: one read of the original, one making, one answer for all", async () => {
    const registry = new Registry();
    const variants = createImageVariants({ maxBytes: 1024 * 1024, registry });
    let reads = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        variants.variant(spec(), async () => {
          reads++;
          return png;
        }),
      ),
    );
    expect(reads).toBe(1);
    expect(variants.stats()).toMatchObject({ made: 1, entries: 1, inFlight: 0 });
    expect(new Set(answers).size).toBe(1);
    expect(await registry.getSingleMetricAsString("image_variants_made_total")).toContain(
      "image_variants_made_total 1",
    );
    // The next one is a cache hit: nothing read, nothing made.
    await variants.variant(spec(), async () => {
      throw new Error("read again");
    });
    expect(variants.stats()).toMatchObject({ made: 1, hits: 1 });
  });

  it("a new version of the original is another variant: the replaced file's is not served", async () => {
    const variants = createImageVariants({ maxBytes: 1024 * 1024 });
    const red = await sharp({ create: { width: 300, height: 100, channels: 3, background: "#dc2626" } })
      .png()
      .toBuffer();
    const before = await variants.variant(spec({ format: "webp" }), async () => png);
    const after = await variants.variant(spec({ format: "webp", source: "/uploads/a.png|v2" }), async () => red);
    if (before.kind !== "made" || after.kind !== "made") throw new Error("not made");
    expect(before.etag).not.toBe(after.etag);
    expect((await sharp(after.body).metadata()).height).toBe(Math.round((100 * 160) / 300));
  });

  it("the cache is bounded by bytes: older variants are evicted, the newest kept", async () => {
    const variants = createImageVariants({ maxBytes: 4_000 });
    for (let version = 0; version < 10; version++) {
      await variants.variant(
        spec({ source: `/uploads/a.png|${version}`, format: "webp", width: 320 }),
        async () => png,
      );
    }
    const { entries, bytes, made } = variants.stats();
    expect(made).toBe(10);
    expect(bytes).toBeLessThanOrEqual(4_000);
    expect(entries).toBeLessThan(10);
    let read = false;
    await variants.variant(spec({ source: "/uploads/a.png|9", format: "webp", width: 320 }), async () => {
      read = true;
      return png;
    });
    expect(read).toBe(false);
  });

  it("what sharp cannot convert (corrupt, animated, SVG) is served as it is, and not tried again", async () => {
    const variants = createImageVariants({ maxBytes: 1024 * 1024 });
    const frame = (background: string) =>
      sharp({ create: { width: 20, height: 20, channels: 3, background } })
        .png()
        .toBuffer();
    const animated = await sharp([await frame("#000"), await frame("#fff")], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    const corrupt = png.slice(0, 60);
    for (const [name, bytes] of [
      ["corrupt", corrupt],
      ["animated", animated],
      ["svg", svg],
    ] as const) {
      const answer = await variants.variant(spec({ source: name }), async () => bytes);
      expect(answer, name).toEqual({ kind: "as-is", reason: "unconvertible" });
      let readAgain = false;
      await variants.variant(spec({ source: name }), async () => {
        readAgain = true;
        return bytes;
      });
      expect(readAgain, name).toBe(false);
    }
    expect(variants.stats().made).toBe(0);
  });

  it("a variant no smaller than the original is not sent: the original is (fewer bytes), and that is remembered", async () => {
    const variants = createImageVariants({ maxBytes: 1024 * 1024 });
    // A 1-colour PNG of a few hundred bytes: a lossy WebP of it is larger.
    const flat = await sharp({ create: { width: 1200, height: 630, channels: 3, background: "#0f172a" } })
      .png({ compressionLevel: 9, palette: true })
      .toBuffer();
    const answer = await variants.variant(spec({ format: "webp", width: 1920, source: "flat" }), async () => flat);
    expect(answer).toEqual({ kind: "as-is", reason: "larger" });
    const again = await variants.variant(spec({ format: "webp", width: 1920, source: "flat" }), async () => {
      throw new Error("read again");
    });
    expect(again).toEqual({ kind: "as-is", reason: "larger" });
  });

  it("an original over the size limit is never read: served as it is", async () => {
    const variants = createImageVariants({ maxBytes: 1024 * 1024 });
    expect(await variants.variant(spec(), async () => null)).toEqual({ kind: "as-is", reason: "too-large" });
  });

  it("more new variants than turns and waiting places: the rest get the original at once, nothing is queued without end", async () => {
    const variants = createImageVariants({ maxBytes: 1024 * 1024, maxConcurrent: 1, maxWaiting: 1 });
    const answers = await Promise.all(
      [1, 2, 3, 4].map((version) => variants.variant(spec({ source: `/uploads/a.png|${version}` }), async () => png)),
    );
    expect(answers.map((answer) => answer.kind)).toEqual(["made", "made", "as-is", "as-is"]);
    expect(answers[3]).toEqual({ kind: "as-is", reason: "busy" });
    // Not remembered: a quieter moment makes it.
    expect((await variants.variant(spec({ source: "/uploads/a.png|4" }), async () => png)).kind).toBe("made");
  });
});
