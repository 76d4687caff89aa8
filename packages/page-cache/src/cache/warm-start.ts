/**
 * Warm start: after a restart or a deploy, the first visitors should not all reach the CMS at
 * once. In the background, the paths the sources list are requested from this server itself,
 * `concurrency` at a time, up to `max` in all: each goes through the page cache as a visitor's
 * request would (with Redis configured, an entry another instance rendered is taken from there
 * instead of rendered again). The sources are taken in turn, one path from each (so a long list
 * of CMS pages does not crowd out the blog's newest articles); a path listed twice, or none
 * (`""`: an item no site URL leads to), is not requested. A source that cannot be listed is left
 * out (said in the log line), the others go on; failed requests are counted and skipped; visitors
 * are served as usual meanwhile. The one log line at the end counts what was requested.
 */
export interface WarmStartSource {
  /** What it lists, for the log line ("CMS pages"). */
  name: string;
  /** Site paths, most wanted first (locale prefix for non-default locales); `""` for none. */
  paths: () => AsyncIterable<string>;
}

export interface WarmStartOptions {
  sources: WarmStartSource[];
  /** Requests one path from this server; resolves when it has been answered. */
  request: (path: string) => Promise<unknown>;
  max: number;
  concurrency: number;
  log?: (line: string) => void;
}

export interface WarmStartResult {
  /** Paths requested and answered. */
  warmed: number;
  /** Paths whose request failed. */
  failed: number;
  /** The sources that could not be listed (name: error). */
  unlisted: string[];
}

/** Up to `max` distinct paths, one from each source in turn. */
async function pathsToWarm(sources: WarmStartSource[], max: number, unlisted: string[]): Promise<string[]> {
  const paths = new Set<string>();
  const open = sources.map((source) => ({ source, iterator: source.paths()[Symbol.asyncIterator]() }));
  try {
    while (open.length > 0 && paths.size < max) {
      for (let i = 0; i < open.length && paths.size < max;) {
        const { source, iterator } = open[i]!;
        let step: IteratorResult<string>;
        try {
          step = await iterator.next();
        } catch (error) {
          unlisted.push(`${source.name}: ${(error as Error).message}`);
          open.splice(i, 1);
          continue;
        }
        if (step.done) {
          open.splice(i, 1);
          continue;
        }
        if (step.value) paths.add(step.value);
        i++;
      }
    }
  } finally {
    // Sources not read to their end are closed (a paged CMS listing stops asking for more).
    await Promise.all(open.map(({ iterator }) => iterator.return?.().catch(() => undefined)));
  }
  return [...paths];
}

export async function warmStart(options: WarmStartOptions): Promise<WarmStartResult> {
  const log = options.log ?? (() => undefined);
  const unlisted: string[] = [];
  const paths = await pathsToWarm(options.sources, options.max, unlisted);
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
  // The one line that says the warm start is over (scripts/quickstart-env.mjs waits for it).
  log(
    `[cache] warm start: ${warmed} page(s) requested${failed ? `, ${failed} failed` : ""}` +
      (unlisted.length ? `; could not list ${unlisted.join("; ")}` : ""),
  );
  return { warmed, failed, unlisted };
}
