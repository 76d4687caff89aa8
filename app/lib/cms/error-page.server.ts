import type { RouterContextProvider } from "react-router";
import * as z from "zod";

import { CMS_REVALIDATE, type CmsClient } from "./client.server.ts";
import { errorPageText, type ErrorPageContent, type ErrorPageKind, type ErrorText } from "./error-page.ts";
import { CmsError } from "./errors.server.ts";
import { cmsContext, logContext, markDynamic } from "../request-context.server.ts";

/** The Error page single type (docs/cms-contract.md, "Content types"). */
export const ERROR_PAGE_UID = "api::error-page.error-page";

const errorPageSchema = z.object({
  data: z.object({
    notFoundTitle: z.string().nullish(),
    notFoundText: z.string().nullish(),
    errorTitle: z.string().nullish(),
    errorText: z.string().nullish(),
  }),
});

/**
 * The published Error page in `locale`, or null when it has none there (404). Records
 * `cms:api::error-page.error-page` either way: a publish reaches every cached 404 that showed it.
 */
export async function findErrorPage(cms: CmsClient, locale: string): Promise<ErrorPageContent | null> {
  try {
    const { data } = await cms.get("/api/error-page", errorPageSchema, {
      query: { locale },
      type: ERROR_PAGE_UID,
      revalidate: CMS_REVALIDATE.navigation,
      omitUserAuthorization: true,
    });
    return data;
  } catch (error) {
    if (error instanceof CmsError && error.kind === "not-found") return null;
    throw error;
  }
}

/**
 * The words of a 404 or error page for this render: the CMS's when it gives them, the built-in
 * ones otherwise (errorPageText). A render that could not read them (the CMS down or answering
 * nonsense) shows the built-in words and is not stored in the page cache, so the CMS's come back
 * with the CMS; a locale with no Error page is stored as any 404 is (a publish reaches it by tag).
 * `cmsDown`: the failure being reported is the CMS not answering: it is not asked again (the
 * visitor would wait a second timeout).
 */
export async function loadErrorText(
  context: Readonly<RouterContextProvider>,
  kind: ErrorPageKind,
  locale: string,
  { cmsDown = false }: { cmsDown?: boolean } = {},
): Promise<ErrorText> {
  if (cmsDown) return errorPageText(kind, null, locale);
  try {
    return errorPageText(kind, await findErrorPage(context.get(cmsContext), locale), locale);
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    context.get(logContext).error(`[cms] error page text unavailable, using the built-in one: ${error.message}`);
    markDynamic(context);
    return errorPageText(kind, null, locale);
  }
}
