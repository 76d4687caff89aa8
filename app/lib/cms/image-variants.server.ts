import { createHash } from "node:crypto";

import { LRUCache } from "lru-cache";
import { Counter, Gauge, type Registry } from "prom-client";
import sharp from "sharp";

import { VARIANT_CONTENT_TYPES, type VariantFormat } from "./image-variants.ts";

/**
 * Makes the AVIF and WebP variants of CMS uploads (app/lib/cms/image-variants.ts names them) with
 * sharp, once each: a byte-bounded LRU keeps what was made, concurrent requests for one variant
 * share one making, and at most `maxConcurrent` are made at a time (`maxWaiting` more wait; beyond
 * that the original is served as it is, never queued without end). An image sharp cannot convert
 * (corrupt, animated, vector, too many pixels), or whose variant would not be smaller, is
 * remembered as such and served as it is.
 * The key the caller gives names the original's version (its Last-Modified and length at the
 * CMS): a file replaced in the CMS has a new key, and its old variants age out of the LRU.
 * docs/decisions/0036.
 */

export type Variant =
  | { kind: "made"; body: Uint8Array<ArrayBuffer>; contentType: string; etag: string }
  | { kind: "as-is"; reason: "unconvertible" | "larger" | "busy" | "too-large" };

/** Still images sharp reads; the rest (gif frames, svg, pdf …) are served as they are. */
const CONVERTIBLE = new Set(["jpeg", "png", "webp", "heif", "tiff", "gif"]);

export interface ImageVariantsOptions {
  /** What the made variants may take in memory. */
  maxBytes: number;
  /** Variants made at once (sharp's own threads work inside each). */
  maxConcurrent?: number;
  /** Requests for new variants that may wait for a turn; more are served the original. */
  maxWaiting?: number;
  /** Originals larger than this are served as they are (never read whole into memory). */
  maxSourceBytes?: number;
  /** Originals with more pixels are served as they are (sharp's decompression-bomb guard). */
  maxInputPixels?: number;
  /** /metrics: image_variants_made_total, …; none in unit tests that do not ask. */
  registry?: Registry;
}

export interface VariantSpec {
  /** The original's CMS path and version: a replaced file is another key. */
  source: string;
  width: number;
  format: VariantFormat;
}

const ENTRY_OVERHEAD = 256;

export function createImageVariants(options: ImageVariantsOptions) {
  const maxConcurrent = options.maxConcurrent ?? 2;
  const maxWaiting = options.maxWaiting ?? 32;
  const maxSourceBytes = options.maxSourceBytes ?? 25 * 1024 * 1024;
  const maxInputPixels = options.maxInputPixels ?? 50_000_000;
  const cache = new LRUCache<string, Variant>({
    maxSize: options.maxBytes,
    sizeCalculation: (variant, key) =>
      (variant.kind === "made" ? variant.body.length : 0) + key.length + ENTRY_OVERHEAD,
  });
  /** One promise per variant being made: bounded by maxConcurrent + maxWaiting (a full queue makes no entry). */
  const inFlight = new Map<string, Promise<Variant>>();
  const counts = { made: 0, hits: 0, asIs: 0 };
  let running = 0;
  const waiting: Array<() => void> = [];

  if (options.registry) registerMetrics(options.registry, counts, () => cache.calculatedSize);

  const keyOf = (spec: VariantSpec) => `${spec.source}|${spec.width}|${spec.format}`;

  async function convert(source: Uint8Array, spec: VariantSpec): Promise<Variant> {
    try {
      const image = sharp(source, { limitInputPixels: maxInputPixels, failOn: "error" });
      const meta = await image.metadata();
      if (!meta.format || !CONVERTIBLE.has(meta.format) || (meta.pages ?? 1) > 1) {
        return { kind: "as-is", reason: "unconvertible" };
      }
      // rotate(): the EXIF orientation applied, as browsers show the original. Never wider than it.
      const resized = image.rotate().resize({ width: spec.width, withoutEnlargement: true });
      const made = await (
        spec.format === "avif" ? resized.avif({ quality: 50, effort: 2 }) : resized.webp({ quality: 75 })
      ).toBuffer();
      counts.made++;
      // A flat graphic can be smaller as a PNG than as a WebP: the visitor gets the fewer bytes.
      if (made.length >= source.length) return { kind: "as-is", reason: "larger" };
      const body = new Uint8Array(made.buffer as ArrayBuffer, made.byteOffset, made.length);
      const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
      return { kind: "made", body, contentType: VARIANT_CONTENT_TYPES[spec.format], etag };
    } catch {
      return { kind: "as-is", reason: "unconvertible" };
    }
  }

  async function turn(): Promise<boolean> {
    if (running < maxConcurrent) {
      running++;
      return true;
    }
    if (waiting.length >= maxWaiting) return false;
    await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    return true;
  }

  function release() {
    running--;
    waiting.shift()?.();
  }

  async function make(spec: VariantSpec, key: string, readSource: () => Promise<Uint8Array | null>): Promise<Variant> {
    const source = await readSource();
    if (source === null) return { kind: "as-is", reason: "too-large" };
    if (!(await turn())) return { kind: "as-is", reason: "busy" };
    try {
      const variant = await convert(source, spec);
      // A file that cannot be converted is remembered too: it is not tried again on every request.
      cache.set(key, variant);
      return variant;
    } finally {
      release();
    }
  }

  return {
    /**
     * The variant for `spec`: from the cache, from a making already under way, or made now from
     * the bytes `readSource` gives (called only then; null: the original is too large). An
     * answer of kind "as-is" means: serve the original.
     */
    async variant(spec: VariantSpec, readSource: () => Promise<Uint8Array | null>): Promise<Variant> {
      const key = keyOf(spec);
      const cached = cache.get(key);
      if (cached) {
        counts.hits++;
        if (cached.kind === "as-is") counts.asIs++;
        return cached;
      }
      let flight = inFlight.get(key);
      if (!flight) {
        flight = make(spec, key, readSource).finally(() => inFlight.delete(key));
        inFlight.set(key, flight);
      }
      const variant = await flight;
      if (variant.kind === "as-is") counts.asIs++;
      return variant;
    },
    maxSourceBytes,
    /** For tests and /metrics. */
    stats: () => ({ ...counts, bytes: cache.calculatedSize, entries: cache.size, inFlight: inFlight.size }),
  };
}

export type ImageVariants = ReturnType<typeof createImageVariants>;

function registerMetrics(
  registry: Registry,
  counts: { made: number; hits: number; asIs: number },
  bytes: () => number,
) {
  const counters: Array<[string, string, () => number]> = [
    ["image_variants_made_total", "Image variants made with sharp (AVIF, WebP)", () => counts.made],
    ["image_variants_cache_hits_total", "Image variant requests answered from the variant cache", () => counts.hits],
    ["image_variants_as_is_total", "Image variant requests answered with the original", () => counts.asIs],
  ];
  // Development builds the app again on every change: the latest maker's counters are the ones read.
  for (const name of [...counters.map(([name]) => name), "image_variants_cache_bytes"])
    registry.removeSingleMetric(name);
  for (const [name, help, read] of counters) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
  new Gauge({
    name: "image_variants_cache_bytes",
    help: "Bytes held by made image variants",
    registers: [registry],
    collect() {
      this.set(bytes());
    },
  });
}
