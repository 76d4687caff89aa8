import type { PageRef } from "../../app/lib/cms/content.server.ts";
import { logger } from "../../app/lib/logger.server.ts";

/**
 * Warm start: after a restart or a deploy, the first visitors should not all reach the CMS at
 * once. In the background, the most recently updated published pages are requested from this
 * server itself, `concurrency` at a time, up to `max`: each goes through the page cache as a
 * visitor's request would (with Redis configured, an entry another instance rendered is taken
 * from there instead of rendered again). Failures are logged and skipped; visitors are served
 * as usual meanwhile.
 */
export interface WarmStartOptions {
  pages: () => AsyncIterable<PageRef>;
  /** The URL path of a page (locale prefix for non-default locales). */
  pathOf: (page: PageRef) => string;
  /** Requests one path from this server; resolves when it has been answered. */
  request: (path: string) => Promise<unknown>;
  max: number;
  concurrency: number;
  log?: (line: string) => void;
}

export async function warmStart(options: WarmStartOptions): Promise<{ warmed: number; failed: number }> {
  const log = options.log ?? ((line: string) => logger().info(line));
  const paths: string[] = [];
  try {
    for await (const page of options.pages()) {
      paths.push(options.pathOf(page));
      if (paths.length >= options.max) break;
    }
  } catch (error) {
    log(`[cache] warm start: could not list the CMS's pages (${(error as Error).message}); skipped`);
    return { warmed: 0, failed: 0 };
  }
  let next = 0;
  let warmed = 0;
  let failed = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      try {
        await options.request(path);
        warmed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, paths.length) }, worker));
  log(`[cache] warm start: ${warmed} page(s) requested${failed ? `, ${failed} failed` : ""}`);
  return { warmed, failed };
}
