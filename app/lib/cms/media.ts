import {
  CONVERTIBLE_MIMES,
  offeredWidths,
  VARIANT_CONTENT_TYPES,
  VARIANT_FORMATS,
  variantPath,
  versionOf,
  withVersion,
} from "./image-variants.ts";

/**
 * CMS media as the site gives it out: the one place that turns a Strapi file (a body image
 * block, a media field such as the SEO share image) into addresses a browser can load and into
 * `<img>` attributes. Pure, shared by the server (loaders, head tags) and the browser.
 * docs/cms-contract.md, "Media"; why the site proxies /uploads: docs/decisions/0017.
 *
 * Addresses: Strapi's local upload provider gives relative `/uploads/<hash>.<ext>` URLs. Without
 * a media base they stay relative and the site serves them itself (app/routes/uploads.$.ts
 * streams them from the CMS). With `CMS_MEDIA_URL` (a CDN in front of the CMS's uploads) they
 * are put after it. Absolute http(s) URLs (S3, Cloudinary and other cloud providers) are left
 * as they are. Anything else (`//host/x`, `javascript:`, a path outside /uploads/ with no base)
 * is no address: null, and the image is left out.
 *
 * Files the site serves itself get the file's version in their addresses (`?v=`: Strapi keeps a
 * file's URL when it is replaced) and, when sharp can convert them, a `<picture>` with AVIF and
 * WebP sources at the declared widths up to the original's own (app/lib/cms/image-variants.ts,
 * docs/decisions/0036).
 */

/** One of Strapi's generated sizes (`formats.small` …): exists only when the original is larger. */
export interface MediaFormat {
  url: string;
  width?: number | null;
  height?: number | null;
}

/** A Strapi media file: the fields the site reads. */
export interface MediaFile {
  url: string;
  alternativeText?: string | null;
  caption?: string | null;
  width?: number | null;
  height?: number | null;
  mime?: string | null;
  formats?: Record<string, unknown> | null;
  /** Changes when an editor replaces the file (its URL does not): the addresses' version (`?v=`). */
  updatedAt?: string | null;
}

/** Strapi's default breakpoints, smallest first (`thumbnail` is fitted into 245 × 156). */
export const MEDIA_FORMATS = ["thumbnail", "small", "medium", "large"] as const;

/**
 * The `sizes` of an image in running text (an article's cover and body, a page's body): the text's
 * measure, `min(42rem, 100% - 3rem)` (app/styles/tokens.css `--measure`, layout.css's page margins).
 * Measured in Chromium: 327, 672 and 672 px wide at 375, 768 and 1280 px.
 */
export const BODY_IMAGE_SIZES = "(max-width: 45rem) calc(100vw - 3rem), 42rem";

/** Where relative media URLs live: `CMS_MEDIA_URL` without a trailing slash, or null (the site's /uploads proxy). */
export type MediaBase = string | null;

const UPLOADS_PREFIX = "/uploads/";

/** The address a browser is given for a CMS media URL, or null when there is none to give. */
export function mediaSrc(url: string, base: MediaBase): string | null {
  if (url.startsWith("/") && !url.startsWith("//") && !url.includes("\\")) {
    if (base) return `${base}${url}`;
    return url.startsWith(UPLOADS_PREFIX) && url.length > UPLOADS_PREFIX.length ? url : null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? url : null;
}

/**
 * A media URL made absolute (og:image, twitter:image: read by other sites): a relative address
 * is put after the site's own origin (`APP_PUBLIC_URL`), where the proxy answers it.
 */
export function absoluteMediaUrl(url: string, base: MediaBase, origin: string): string | null {
  const src = mediaSrc(url, base);
  if (src === null) return null;
  return src.startsWith("/") ? `${origin}${src}` : src;
}

const positive = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value > 0;

function formatOf(value: unknown): MediaFormat | null {
  if (!value || typeof value !== "object") return null;
  const { url, width, height } = value as Record<string, unknown>;
  if (typeof url !== "string") return null;
  return { url, width: positive(width) ? width : null, height: positive(height) ? height : null };
}

/** An address a `srcset` can carry: no whitespace or comma (they separate its candidates). */
function srcSetCandidate(url: string, base: MediaBase, version: string | null): string | null {
  const src = mediaSrc(url, base);
  return src !== null && !/[\s,]/.test(src) ? served(src, version) : null;
}

/** Whether the site answers this address itself (app/routes/uploads.$.ts): only then can it version it or make variants. */
const servedBySite = (src: string) => src.startsWith(UPLOADS_PREFIX);

/** A site-served address with the file's version; any other as it is. */
const served = (src: string, version: string | null) => (servedBySite(src) ? withVersion(src, version) : src);

/**
 * A `srcset` of the original and every generated format (`url 500w, …`, narrowest first, one
 * candidate a width). Strapi makes a format only when the original is wider than its
 * breakpoint, so the original is always a candidate. Null when the original's width is unknown
 * (a `w` descriptor needs it) or there is nothing to choose between.
 */
export function mediaSrcSet(file: MediaFile, base: MediaBase): string | null {
  if (!positive(file.width)) return null;
  const version = versionOf(file.updatedAt);
  const original = srcSetCandidate(file.url, base, version);
  if (original === null) return null;
  const byWidth = new Map<number, string>([[file.width, original]]);
  const formats = file.formats ?? {};
  for (const name of MEDIA_FORMATS) {
    const format = formatOf(formats[name]);
    const src = format && srcSetCandidate(format.url, base, version);
    if (!format?.width || !src || byWidth.has(format.width)) continue;
    byWidth.set(format.width, src);
  }
  if (byWidth.size < 2) return null;
  return [...byWidth]
    .sort(([a], [b]) => a - b)
    .map(([width, src]) => `${src} ${width}w`)
    .join(", ");
}

/** A `<source>` of a `<picture>`: one format at the declared widths. */
export interface ImageSource {
  type: string;
  srcSet: string;
}

/** What an `<img>` of a CMS image is rendered with (in a `<picture>` when there are `sources`). */
export interface ImageAttributes {
  src: string;
  srcSet?: string;
  sizes?: string;
  /** AVIF, then WebP: the browser takes the first type it can show (no `Vary: Accept` anywhere). */
  sources?: ImageSource[];
  width?: number;
  height?: number;
  /** `alternativeText`; empty (a decorative image) when the editor left it out. */
  alt: string;
  loading: "lazy" | "eager";
  /** The page's first image (its likely LCP): asked for before the others. */
  fetchPriority?: "high";
}

export interface ImageOptions {
  base: MediaBase;
  /** Below the fold: loaded when the visitor scrolls near it. Not lazy: the page's first image, asked for first. */
  lazy: boolean;
  sizes?: string;
}

/**
 * The AVIF and WebP sources of a file the site serves and sharp can convert, at the declared
 * widths up to the original's (never wider: the last candidate is the original's own width);
 * none when its width or type is unknown.
 */
export function variantSources(file: MediaFile, src: string): ImageSource[] {
  if (!servedBySite(src) || !positive(file.width) || !file.mime || !CONVERTIBLE_MIMES.has(file.mime)) return [];
  if (/[\s,?#]/.test(src)) return [];
  const version = versionOf(file.updatedAt);
  const widths = offeredWidths(file.width);
  return VARIANT_FORMATS.map((format) => ({
    type: VARIANT_CONTENT_TYPES[format],
    srcSet: widths
      .map(({ width, actual }) => `${withVersion(variantPath(src, width, format), version)} ${actual}w`)
      .join(", "),
  }));
}

/** The `<img>` (and `<picture>` sources) of a CMS image, or null when it has no usable address. */
export function imageAttributes(file: MediaFile, options: ImageOptions): ImageAttributes | null {
  const src = mediaSrc(file.url, options.base);
  if (src === null) return null;
  const srcSet = mediaSrcSet(file, options.base);
  const sources = variantSources(file, src);
  // Both or neither: the browser reserves the box from their ratio (no layout shift).
  const box = positive(file.width) && positive(file.height) ? { width: file.width, height: file.height } : {};
  return {
    src: served(src, versionOf(file.updatedAt)),
    ...(srcSet ? { srcSet } : {}),
    ...(srcSet || sources.length > 0 ? { sizes: options.sizes ?? BODY_IMAGE_SIZES } : {}),
    ...(sources.length > 0 ? { sources } : {}),
    ...box,
    alt: file.alternativeText?.trim() ?? "",
    loading: options.lazy ? "lazy" : "eager",
    ...(options.lazy ? {} : { fetchPriority: "high" as const }),
  };
}

/** A body block: the blocks editor's nodes, of which only `image` ones are looked at here. */
interface BodyNode {
  type: string;
  image?: unknown;
}

/** An image block as the page's loader hands it to the renderer: with its `<img>` attributes. */
export interface BodyImageNode {
  type: "image";
  image: MediaFile;
  /** Null: no usable address, nothing is rendered. */
  media: ImageAttributes | null;
}

function isMediaFile(value: unknown): value is MediaFile {
  return Boolean(value) && typeof value === "object" && typeof (value as { url?: unknown }).url === "string";
}

/**
 * The body with each image block given its `<img>` attributes (`media`). The page's first image
 * (none before the body: `imagesBefore` 0) is loaded at once and first (it may well be in view);
 * every later one lazily. Done in the loader so the server's HTML and the browser's render agree.
 */
export function withBodyMedia<Body extends readonly BodyNode[]>(body: Body, base: MediaBase, imagesBefore = 0): Body {
  let images = imagesBefore;
  return body.map((node) => {
    if (node.type !== "image") return node;
    const media = isMediaFile(node.image) ? imageAttributes(node.image, { base, lazy: images > 0 }) : null;
    if (media) images++;
    return { ...node, media };
  }) as unknown as Body;
}
