import type { ImageVariants, Variant } from "./image-variants.server.ts";
import type { VariantRequest } from "./image-variants.ts";
import {
  askCms,
  MEDIA_CACHE_CONTROL,
  MEDIA_CSP,
  MEDIA_UNVERSIONED_CACHE_CONTROL,
  plain,
  unusable,
  uploadPathOf,
  type MediaProxyConfig,
} from "./media-proxy.server.ts";

/**
 * `GET /uploads/_w<width>/<file>.<avif|webp>`: a variant of a CMS upload (app/routes/uploads.$.ts).
 * The original is asked of the CMS each time (the visitor's headers never are): its Last-Modified
 * and length name its version, so a file replaced in the CMS gets new variants at once, and the
 * body is read only when a variant has to be made. What cannot be converted is sent as it is.
 * Headers as for originals (media-proxy.server.ts): the sandboxing policy, a year's caching for a
 * versioned address (`?v=`), 5 minutes otherwise. docs/decisions/0036.
 */

/** What answers as-is carry: another try (a replaced file, a quieter moment) comes soon. */
const AS_IS_CACHE_CONTROL = "public, max-age=300";

export async function proxyVariant(
  request: Request,
  wanted: VariantRequest,
  config: MediaProxyConfig & { variants: ImageVariants },
): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return plain(405, "Uploaded files can only be read (GET or HEAD).", { allow: "GET, HEAD" });
  }
  if (wanted.kind === "refused") return plain(400, `${wanted.reason} Check the address and try again.`);
  const path = uploadPathOf(wanted.uploadPath);
  if (!path) return plain(404, "There is no file at this address.");

  const asked = await askCms(path, { method: "GET", headers: {}, signal: request.signal }, config);
  if ("answer" in asked) return asked.answer;
  const { upstream } = asked;
  if (upstream.status !== 200) return unusable(upstream, path, config);

  const lastModified = upstream.headers.get("last-modified");
  const length = Number(upstream.headers.get("content-length") ?? Number.NaN);
  const originalType = upstream.headers.get("content-type") ?? "application/octet-stream";
  const asIs = (body: Uint8Array<ArrayBuffer> | ReadableStream | null) =>
    answer(request, body, {
      "content-type": originalType,
      "cache-control": AS_IS_CACHE_CONTROL,
      ...(body instanceof Uint8Array ? { "content-length": String(body.length) } : {}),
    });
  // Without both, versions of the file cannot be told apart: nothing is made that could outlive it.
  if (!lastModified || !Number.isSafeInteger(length)) {
    if (request.method === "HEAD") await upstream.body?.cancel();
    return asIs(upstream.body);
  }

  const read: { bytes: Uint8Array<ArrayBuffer> | null } = { bytes: null };
  let variant: Variant;
  try {
    variant = await config.variants.variant(
      { source: `${path}|${lastModified}|${length}`, width: wanted.width, format: wanted.format },
      async () => {
        if (length > config.variants.maxSourceBytes) return null;
        read.bytes = new Uint8Array(await upstream.arrayBuffer());
        return read.bytes;
      },
    );
  } catch {
    // The request that was reading the original went away (or the CMS broke off): this one sends its own copy.
    variant = { kind: "as-is", reason: "unconvertible" };
  }
  // The CMS's body, when nobody read it and nobody will, is let go (its connection with it).
  if (read.bytes === null && (variant.kind === "made" || request.method === "HEAD")) await upstream.body?.cancel();
  if (variant.kind === "as-is") return asIs(read.bytes ?? upstream.body);
  if (request.headers.get("if-none-match") === variant.etag) {
    return answer(request, null, { etag: variant.etag, "cache-control": cacheControl(wanted) }, 304);
  }
  return answer(request, variant.body, {
    "content-type": variant.contentType,
    "content-length": String(variant.body.length),
    etag: variant.etag,
    "cache-control": cacheControl(wanted),
  });
}

const cacheControl = (wanted: VariantRequest) =>
  wanted.kind === "variant" && wanted.version ? MEDIA_CACHE_CONTROL : MEDIA_UNVERSIONED_CACHE_CONTROL;

function answer(request: Request, body: BodyInit | null, headers: Record<string, string>, status = 200): Response {
  return new Response(request.method === "HEAD" ? null : body, {
    status,
    headers: { ...headers, "content-security-policy": MEDIA_CSP },
  });
}
