import { RenderReads, renderReadsContext } from "@cms-site/page-cache";
import { createContext, RouterContextProvider } from "react-router";

import { createCmsClient, type CmsClient, type CmsDataCache } from "./cms/client.server.ts";
import { authContext, type AuthServices } from "./auth/auth.server.ts";
import type { Env } from "./env.server.ts";
import type { ImageVariants } from "./cms/image-variants.server.ts";
import type { Log } from "./log.ts";
import type { RateLimiter } from "./auth/rate-limit.server.ts";
import { searchLimiterContext } from "./search/rate-limit.server.ts";

/**
 * Per-request dependencies, handed to loaders and actions through React Router's context
 * (`context.get(cmsContext)`) rather than module-level singletons. server/app.ts builds one
 * per request.
 */

/** The process's configuration (app/lib/env.server.ts), validated once at start by server/index.ts. */
export const configContext = createContext<Env>();

/**
 * The process's logger, as a child carrying this request's id (`reqId`, the one its request line
 * and X-Request-Id carry) when it has one: loaders, actions and the functions they call log here.
 */
export const logContext = createContext<Log>();

/** The CMS client of this request. */
export const cmsContext = createContext<CmsClient>();

/**
 * Every CMS call this request made, with its interval and tags, and whether the render depends on
 * who asked (session, cookies): what the page cache needs to know. The package's RenderReads
 * (@cms-site/page-cache), under its renderReadsContext; the CMS client records each call there.
 */
export { renderReadsContext };

/**
 * Whether the visitor carries a session cookie (not whether it is valid): the page cache keeps
 * one variant of each page for each answer. The layout shows an account link and a Sign out
 * button from it, with no name: the variant is shared by every signed-in visitor.
 */
export const visitorContext = createContext<{ signedIn: boolean }>({ signedIn: false });

/** The process's image variant maker (app/lib/cms/image-variants.server.ts): one cache for every request. */
export const imageVariantsContext = createContext<ImageVariants>();

export interface SharedServices {
  dataCache?: CmsDataCache;
  auth: AuthServices;
  imageVariants: ImageVariants;
  /** The site search's per-client budget (app/lib/search/rate-limit.server.ts). */
  searchLimiter: RateLimiter;
  /** The process's logger (server/index.ts made it). */
  log: Log;
}

/**
 * @param sessionJWT the visitor's CMS JWT, for CMS calls made without omitUserAuthorization
 *   (app/lib/auth/session.server.ts provides it; absent for renders made for the shared cache).
 * @param requestId the id server/index.ts gave the request, for its log lines; none for a
 *   render the page cache makes on its own (a refresh after a revalidation).
 */
export function createRequestContext(
  env: Env,
  services: SharedServices,
  sessionJWT?: (context: RouterContextProvider) => Promise<string | undefined>,
  visitor: { signedIn: boolean } = { signedIn: false },
  requestId?: string,
): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(configContext, env);
  context.set(logContext, requestId ? services.log.child({ reqId: requestId }) : services.log);
  context.set(authContext, services.auth);
  context.set(imageVariantsContext, services.imageVariants);
  context.set(searchLimiterContext, services.searchLimiter);
  context.set(visitorContext, visitor);
  const reads = new RenderReads();
  context.set(renderReadsContext, reads);
  context.set(
    cmsContext,
    createCmsClient({
      baseUrl: env.CMS_URL,
      apiToken: env.CMS_REST_READONLY_API_KEY,
      timeoutMs: env.CMS_FETCH_TIMEOUT_MS,
      dataCache: services.dataCache,
      sessionJWT: sessionJWT && (() => sessionJWT(context)),
      onCall: (record) => reads.record(record),
    }),
  );
  return context;
}

/** Marks the current render as personal: it is sent, never stored in the shared cache. */
export function markDynamic(context: Readonly<RouterContextProvider>): void {
  context.get(renderReadsContext).dynamic = true;
}
