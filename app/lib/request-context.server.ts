import { createContext, RouterContextProvider } from "react-router";

import { createCmsClient, type CmsCallRecord, type CmsClient } from "./cms/client.server.ts";
import type { Env } from "./env.server.ts";

/**
 * Per-request dependencies, handed to loaders through React Router's context
 * (`context.get(cmsContext)`) rather than module-level singletons.
 */

/** The CMS client of this request. */
export const cmsContext = createContext<CmsClient>();

/** Every CMS call this request made, with its interval and tags: what the ISR cache needs to know. */
export const cmsCallsContext = createContext<CmsCallRecord[]>();

export function createRequestContext(env: Env): RouterContextProvider {
  const context = new RouterContextProvider();
  const calls: CmsCallRecord[] = [];
  context.set(cmsCallsContext, calls);
  context.set(
    cmsContext,
    createCmsClient({
      baseUrl: env.CMS_URL,
      apiToken: env.CMS_REST_READONLY_API_KEY,
      timeoutMs: env.CMS_FETCH_TIMEOUT_MS,
      onCall: (record) => calls.push(record),
    }),
  );
  return context;
}
