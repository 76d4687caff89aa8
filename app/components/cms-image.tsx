import type { BlocksRenderer } from "@strapi/blocks-react-renderer";
import type { ComponentProps } from "react";

import type { ImageAttributes, MediaFile } from "../lib/cms/media.ts";

/** An `<img>` of a CMS image, with the attributes app/lib/cms/media.ts worked out. */
export function CmsImage({ media }: { media: ImageAttributes }) {
  return (
    <img
      src={media.src}
      srcSet={media.srcSet}
      sizes={media.sizes}
      width={media.width}
      height={media.height}
      alt={media.alt}
      loading={media.loading}
      decoding="async"
    />
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
