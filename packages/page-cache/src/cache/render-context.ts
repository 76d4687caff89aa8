import { createContext } from "react-router";

import type { RenderReads } from "./render-reads.ts";

/**
 * Where a render's RenderReads sits in React Router's request context: the server sets it before
 * the render (`context.set(renderReadsContext, new RenderReads(cache.dataCache))`), loaders take it
 * (`context.get(renderReadsContext)`) to read through cachedRead. One context object for the app
 * and its server, as long as both import this package from node_modules (Vite's server build
 * leaves installed packages external).
 */
export const renderReadsContext = createContext<RenderReads>();
