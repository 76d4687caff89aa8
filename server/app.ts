import { createRequestHandler } from "@react-router/express";
import express from "express";
import "react-router";

import { getEnv } from "../app/lib/env.server.ts";
import { createRequestContext } from "../app/lib/request-context.server.ts";

/**
 * The request handler for everything that is not a static file: React Router, and in
 * front of it (next issue) the ISR response cache. It is bundled with the app by Vite
 * (see vite.config.ts), so it shares module instances, such as router contexts, with
 * the route modules. server/index.ts mounts it.
 */
export const app = express();

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
    getLoadContext: () => createRequestContext(getEnv()),
  }),
);
