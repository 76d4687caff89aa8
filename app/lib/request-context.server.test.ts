import { describe, expect, it } from "vitest";

import { memoryLog } from "../../tests/support/memory-log.ts";
import type { AuthServices } from "./auth/auth.server.ts";
import type { ImageVariants } from "./cms/image-variants.server.ts";
import type { RateLimiter } from "./auth/rate-limit.server.ts";
import { parseEnv } from "./env.server.ts";
import { createRequestContext, logContext, type SharedServices } from "./request-context.server.ts";

// Loaders and actions log through the router context (decision 0049): the process's logger,
// as a child carrying the request's id when the request has one.
const env = parseEnv({ NODE_ENV: "test", CMS_URL: "http://cms.test", CMS_REST_READONLY_API_KEY: "x".repeat(20) });
const servicesWith = (log = memoryLog()): SharedServices & { log: ReturnType<typeof memoryLog> } => ({
  auth: {} as AuthServices,
  imageVariants: {} as ImageVariants,
  searchLimiter: {} as RateLimiter,
  log,
});

describe("createRequestContext: the request's logger", () => {
  it("is the process's logger with the request's id on every line", () => {
    const services = servicesWith();
    const context = createRequestContext(env, services, undefined, undefined, "edge-1:abc");
    context.get(logContext).error("[cms] navbar/footer unavailable: down");
    context.get(logContext).warn({ status: 404 }, "[router] 404 Not Found");
    expect(services.log.lines).toEqual([
      { level: "error", msg: "[cms] navbar/footer unavailable: down", fields: { reqId: "edge-1:abc" } },
      { level: "warn", msg: "[router] 404 Not Found", fields: { reqId: "edge-1:abc", status: 404 } },
    ]);
  });

  it("a render with no request of its own (a refresh after a revalidation) logs with no id", () => {
    const services = servicesWith();
    createRequestContext(env, services).get(logContext).info("[cms] something");
    expect(services.log.lines).toEqual([{ level: "info", msg: "[cms] something", fields: {} }]);
  });
});
