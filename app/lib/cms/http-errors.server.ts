import { data } from "react-router";

import { CmsError, publicCmsErrorMessage } from "./errors.server.ts";

export interface ErrorPayload {
  message: string;
}

/**
 * Runs a loader's CMS work; a CmsError becomes a response with its status (502/503)
 * and a message for the visitor, logged once with the detail for the operator.
 */
export async function withCmsErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    console.error(`[cms] ${error.message}`, error.cause instanceof Error ? `(${error.cause.message})` : "");
    throw data<ErrorPayload>({ message: publicCmsErrorMessage(error) }, { status: error.status });
  }
}
