import type { BlocksRenderer } from "@strapi/blocks-react-renderer";
import type { ComponentProps } from "react";

import type { ImageAttributes, MediaFile } from "../lib/cms/media.ts";

/**
 * A CMS image with the attributes app/lib/cms/media.ts worked out: a `<picture>` whose AVIF and
 * WebP sources the browser picks by type, around the `<img>` of the original (every browser's
 * fallback, and what carries the box, alt and loading). The page's first image is fetched first
 * (`fetchpriority="high"`, not lazy); the others lazily, decoded off the main thread.
 */
export function CmsImage({ media, className }: { media: ImageAttributes; className?: string }) {
  const img = (
    <img
      className={className}
      src={media.src}
      srcSet={media.srcSet}
      sizes={media.sizes}
      width={media.width}
      height={media.height}
      alt={media.alt}
      loading={media.loading}
      fetchPriority={media.fetchPriority}
      decoding={media.fetchPriority ? undefined : "async"}
    />
  );
  if (!media.sources?.length) return img;
  return (
    <picture>
      {media.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={media.sizes} />
      ))}
      {img}
    </picture>
  );
}

/**
 * An image block of a page body. The loader gave it `media` (withBodyMedia); an image with no
 * usable address renders nothing rather than a broken `<img>`.
 */
export function BodyImage(props: { image: MediaFile }) {
  const { image, media } = props as { image: MediaFile; media?: ImageAttributes | null };
  if (!media) return null;
  const caption = image.caption?.trim();
  return (
    <figure className="cms-image">
      <CmsImage media={media} />
      {caption ? <figcaption>{caption}</figcaption> : null}
    </figure>
  );
}

/** The blocks a page body is rendered with beyond the renderer's defaults. */
export const BODY_BLOCKS: ComponentProps<typeof BlocksRenderer>["blocks"] = { image: BodyImage };
