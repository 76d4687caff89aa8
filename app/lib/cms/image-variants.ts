/**
 * The addresses of the image variants the site makes from a CMS upload (AVIF and WebP at a fixed
 * set of widths, made with sharp: app/lib/cms/image-variants.server.ts) and how a request for one
 * is read. Pure, shared by the markup (app/lib/cms/media.ts) and the server. docs/decisions/0036.
 *
 *   /uploads/_w640/acme_share_1a2b.png.avif?v=mfq3k2x1
 *
 * Width and format sit in the path, so every cache keys them (some CDNs drop query strings by
 * default); the version (`v`, from the file's `updatedAt`) is the only query parameter. A request
 * with another width, another format, another parameter or a malformed version is refused (400)
 * before anything is fetched or made: a stranger cannot have 10,000 sizes made.
 */

/** The widths made, narrowest first: the layout's slots at 1x and 2x (logo 10rem … full column 60rem). */
export const VARIANT_WIDTHS = [160, 320, 480, 640, 960, 1280, 1920] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

/** The formats made, best first: the order of a `<picture>`'s sources. */
export const VARIANT_FORMATS = ["avif", "webp"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

export const VARIANT_CONTENT_TYPES: Record<VariantFormat, string> = { avif: "image/avif", webp: "image/webp" };

/** Originals the markup offers variants of: still images sharp reads. GIF may move, SVG is drawn: both as they are. */
export const CONVERTIBLE_MIMES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/webp", "image/avif"]);

const UPLOADS = "/uploads/";
/** A version token: a file's `updatedAt` in base 36 milliseconds (`mfq3k2x1`). */
const VERSION = /^[0-9a-z]{1,16}$/;

/** `v` for a file's `updatedAt` (ISO), or null when it has none the site can read. */
export function versionOf(updatedAt: string | null | undefined): string | null {
  if (!updatedAt) return null;
  const time = Date.parse(updatedAt);
  return Number.isFinite(time) && time > 0 ? time.toString(36) : null;
}

/** `path?v=…` when there is a version. */
export function withVersion(path: string, version: string | null): string {
  return version ? `${path}?v=${version}` : path;
}

/** The variant address of an upload path (`/uploads/a.png` → `/uploads/_w640/a.png.avif`). */
export function variantPath(uploadPath: string, width: VariantWidth, format: VariantFormat): string {
  return `${UPLOADS}_w${width}/${uploadPath.slice(UPLOADS.length)}.${format}`;
}

/**
 * The declared widths a file of `originalWidth` is offered at: every one narrower than it, and
 * the narrowest that reaches it, which the server makes at the original's own width (never wider).
 * Each with the width the browser is told (`w` descriptor).
 */
export function offeredWidths(originalWidth: number): Array<{ width: VariantWidth; actual: number }> {
  const offered: Array<{ width: VariantWidth; actual: number }> = [];
  for (const width of VARIANT_WIDTHS) {
    if (width < originalWidth) offered.push({ width, actual: width });
    else {
      offered.push({ width, actual: originalWidth });
      break;
    }
  }
  return offered;
}

export type VariantRequest =
  | { kind: "variant"; uploadPath: string; width: VariantWidth; format: VariantFormat; version: string | null }
  | { kind: "refused"; reason: string };

/**
 * A request target under /uploads/ read as a variant request; null when it is no variant address
 * (an original: the proxy answers it). Only the path and query are read; the path's segments are
 * checked again by the proxy's own rules (uploadPathOf) before the CMS is asked.
 */
export function parseVariantRequest(url: URL): VariantRequest | null {
  const match = /^\/uploads\/_w([^/]*)\/(.+)$/.exec(url.pathname);
  if (!match) return null;
  const [, widthText, rest] = match as unknown as [string, string, string];
  const width = VARIANT_WIDTHS.find((declared) => String(declared) === widthText);
  if (width === undefined) {
    return { kind: "refused", reason: `Images are made at these widths only: ${VARIANT_WIDTHS.join(", ")}.` };
  }
  const dot = rest.lastIndexOf(".");
  const format = VARIANT_FORMATS.find((declared) => declared === rest.slice(dot + 1));
  if (dot <= 0 || format === undefined) {
    return { kind: "refused", reason: `Images are made in these formats only: ${VARIANT_FORMATS.join(", ")}.` };
  }
  const names = [...url.searchParams.keys()];
  const version = url.searchParams.get("v");
  if (names.some((name) => name !== "v") || names.length > 1 || (version !== null && !VERSION.test(version))) {
    return { kind: "refused", reason: "An image variant's address takes one query parameter only: v=<version>." };
  }
  return { kind: "variant", uploadPath: `${UPLOADS}${rest.slice(0, dot)}`, width, format, version };
}

/** Whether a request for an original carries a well-formed version (then its answer may be kept for a year). */
export function hasVersion(url: URL): boolean {
  const version = url.searchParams.get("v");
  return version !== null && VERSION.test(version);
}
