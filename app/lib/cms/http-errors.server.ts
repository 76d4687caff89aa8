import { data } from "react-router";

import type { ErrorText } from "./error-page.ts";
import type { Log } from "../log.ts";
import { CmsError, publicCmsErrorMessage } from "./errors.server.ts";

export interface ErrorPayload {
  message: string;
  /** The error page's title, when the loader knew it (the CMS's Error page). */
  title?: string;
}

/**
 * Runs a loader's CMS work; a CmsError becomes a response with its status (502/503)
 * and a message for the visitor, logged once to `log` with the detail for the operator.
 * `errorText` may give the words to show instead (the CMS's Error page); null keeps the
 * message that names the failure.
 */
export async function withCmsErrors<T>(
  log: Pick<Log, "error">,
  work: () => Promise<T>,
  errorText?: (error: CmsError) => Promise<ErrorText | null>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    log.error(`[cms] ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}`);
    const text = (await errorText?.(error)) ?? null;
    throw data<ErrorPayload>(text ?? { message: publicCmsErrorMessage(error) }, { status: error.status });
  }
}
