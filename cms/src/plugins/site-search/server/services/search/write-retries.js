"use strict";

/** Documents whose index write waits for the engine; beyond, the whole index is rebuilt instead. */
const MAX_PENDING = 1_000;

/**
 * Index writes that failed because the search engine did not answer (Groonga down or too slow:
 * EngineUnavailable), tried again every `intervalMs` until the engine answers (docs/search.md,
 * "Groonga"). Each is the document's reindex, which reads its published version again, so a retry
 * writes what is published at the time of the retry, never a stale state. At most MAX_PENDING
 * documents wait; one more and they are dropped for one rebuild of the whole index (which reads
 * every published document) once the engine answers. `prepare()`: the engine's preparation when
 * the CMS started without it (bootstrap's ensure), done first. One timer at a time, and none while
 * nothing waits.
 *
 * - retry(uid, documentId, locale): the document's reindex (through the service's queue);
 * - prepare(): ensure() (tables, and a rebuild when the index is empty);
 * - rebuild(): the whole index again.
 */
function writeRetries({ retry, prepare, rebuild, intervalMs, log }) {
  const pending = new Map();
  let prepareDue = false;
  let rebuildDue = false;
  let timer = null;

  const schedule = () => {
    if (timer) return;
    timer = setTimeout(run, intervalMs);
    timer.unref?.();
  };

  async function run() {
    try {
      if (prepareDue) {
        await prepare();
        prepareDue = false;
      }
      if (rebuildDue) {
        await rebuild();
        rebuildDue = false;
      }
      for (const [key, args] of pending) {
        await retry(...args);
        pending.delete(key);
      }
      log.info(`[site-search] the search engine answers again: the index has caught up`);
    } catch (error) {
      log.warn(`[site-search] the search engine still fails (${error.message}); next try in ${intervalMs} ms`);
    } finally {
      timer = null;
      if (prepareDue || rebuildDue || pending.size > 0) schedule();
    }
  }

  return {
    add(uid, documentId, locale) {
      if (rebuildDue) return;
      const key = `${uid}\u0000${documentId}\u0000${locale ?? "*"}`;
      if (!pending.has(key) && pending.size >= MAX_PENDING) {
        pending.clear();
        rebuildDue = true;
      } else pending.set(key, [uid, documentId, locale]);
      schedule();
    },
    prepareLater() {
      prepareDue = true;
      schedule();
    },
    /** How many documents wait, and whether a rebuild or the preparation does (the unit tests look). */
    state: () => ({ pending: pending.size, prepareDue, rebuildDue }),
    stop() {
      clearTimeout(timer);
      timer = null;
    },
  };
}

module.exports = { writeRetries, MAX_PENDING };
