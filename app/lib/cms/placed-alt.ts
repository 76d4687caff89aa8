import * as z from "zod";

/**
 * An image's alternative text where an editor placed it (docs/cms-contract.md, "Alternative text";
 * the CMS's side: cms/src/images/alt-text-placements.js): the placement's own alt field (localized
 * with its page or article), else the file's alternative text in the Media Library; empty when the
 * placement is marked decorative. The CMS refuses to publish an informative image with neither.
 */
export function withPlacedAlt<T extends { alternativeText?: string | null }>(
  file: T | null | undefined,
  alt: string | null | undefined,
  decorative?: boolean | null,
): T | null {
  if (!file) return null;
  if (decorative) return { ...file, alternativeText: "" };
  return alt?.trim() ? { ...file, alternativeText: alt.trim() } : file;
}

/** The fields of a section's image placement (hero, card, quote; media-with-text has no `imageDecorative`). */
export const imagePlacementFields = {
  imageAlt: z.string().nullish(),
  imageDecorative: z.boolean().nullish(),
};

/** A section (or card) with its placement's fields folded into its `image`'s alternative text. */
export function placedImage<
  T extends {
    image: { alternativeText?: string | null } | null;
    imageAlt?: string | null;
    imageDecorative?: boolean | null;
  },
>({ imageAlt, imageDecorative, ...rest }: T): Omit<T, "imageAlt" | "imageDecorative"> {
  return { ...rest, image: withPlacedAlt(rest.image, imageAlt, imageDecorative) } as Omit<
    T,
    "imageAlt" | "imageDecorative"
  >;
}
