import { signPreviewLink, type PreviewLinkFields } from "../../app/lib/preview/preview-link.server.ts";

/**
 * `/api/preview?…` signed for a page, as the CMS's Preview handler makes it
 * (cms/src/preview/signed-link.js): for tests that enter a preview without asking a CMS for the
 * link. Valid for ten minutes from now, as the CMS's are.
 */
export function previewLink(
  secret: string,
  fields: Partial<PreviewLinkFields> & { path: string },
  expiresAt = Date.now() + 10 * 60_000,
): string {
  const signed = signPreviewLink(
    secret,
    { type: "api::page.page", document: "", locale: "en", status: "draft", ...fields },
    expiresAt,
  );
  return `/api/preview?${signed}`;
}
