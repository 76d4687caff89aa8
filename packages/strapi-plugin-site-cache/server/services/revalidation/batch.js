"use strict";

/**
 * Coalesces publish payloads into batches (docs/decisions/0028-publish-to-visible-at-the-edge.md):
 * a bulk publish of 50 documents, or a release, makes ONE request to the site and one CDN purge.
 * A batch is sent `windowMs` after the last payload joined it, `maxWaitMs` after the first at the
 * latest, or at once when one more payload would take it past `maxItems` paths or tags (the site
 * takes 1000 of each, and expands each default-locale path to two for the purge that follows),
 * `maxBytes` of paths and tags (the site's bodies are ≤ 64 KiB) or `maxPayloads` payloads (that
 * payload starts the next batch). So a batch is bounded, and so is
 * the wait. Takedowns are never batched (sending.js sends them at once).
 *
 * `add(payload)` resolves with what `send(merged)` resolved to for the batch it joined. The merged
 * payload: the first payload's uid, every path and tag once, `committedAt` the earliest,
 * `batched` the number of payloads.
 */
function mergePayloads(payloads) {
  const fullPaths = new Set();
  const tags = new Set();
  let committedAt;
  for (const payload of payloads) {
    for (const path of payload.next.fullPaths ?? []) fullPaths.add(path);
    for (const tag of payload.next.tags ?? []) tags.add(tag);
    if (Number.isFinite(payload.committedAt))
      committedAt = committedAt === undefined ? payload.committedAt : Math.min(committedAt, payload.committedAt);
  }
  const next = {};
  if (fullPaths.size) next.fullPaths = [...fullPaths];
  if (tags.size) next.tags = [...tags];
  return {
    uid: payloads[0].uid,
    next,
    ...(committedAt === undefined ? {} : { committedAt }),
    ...(payloads.length > 1 ? { batched: payloads.length } : {}),
  };
}

function createBatcher({
  send,
  windowMs = 100,
  maxWaitMs = 1_000,
  maxItems = 500,
  maxBytes = 24_000,
  maxPayloads = 200,
  timers = { setTimeout, clearTimeout },
}) {
  /** The batch being collected: { payloads, paths, tags, firstAt, timer, settle } or null. */
  let open = null;
  let sent = 0;

  function flush(batch) {
    if (open === batch) open = null;
    timers.clearTimeout(batch.timer);
    sent += 1;
    const merged = mergePayloads(batch.payloads);
    // Called at once (not on a later tick), so whoever counts work in flight never sees a gap.
    let sending;
    try {
      sending = Promise.resolve(send(merged));
    } catch (error) {
      sending = Promise.reject(error);
    }
    sending.then(batch.resolve, batch.reject);
  }

  function schedule(batch) {
    timers.clearTimeout(batch.timer);
    const wait = Math.max(0, Math.min(windowMs, batch.firstAt + maxWaitMs - Date.now()));
    batch.timer = timers.setTimeout(() => flush(batch), wait);
    batch.timer?.unref?.();
  }

  function add(payload) {
    const paths = payload.next.fullPaths ?? [];
    const tags = payload.next.tags ?? [];
    if (open) {
      const newPaths = paths.filter((path) => !open.paths.has(path));
      const newTags = tags.filter((tag) => !open.tags.has(tag));
      const moreBytes = [...newPaths, ...newTags].reduce((sum, item) => sum + item.length + 3, 0);
      if (
        open.payloads.length >= maxPayloads ||
        open.paths.size + newPaths.length > maxItems ||
        open.tags.size + newTags.length > maxItems ||
        open.bytes + moreBytes > maxBytes
      )
        flush(open);
    }
    if (!open) {
      let resolve;
      let reject;
      const done = new Promise((yes, no) => {
        resolve = yes;
        reject = no;
      });
      open = {
        payloads: [],
        paths: new Set(),
        tags: new Set(),
        bytes: 0,
        firstAt: Date.now(),
        timer: null,
        done,
        resolve,
        reject,
      };
    }
    const batch = open;
    batch.payloads.push(payload);
    for (const item of paths) if (!batch.paths.has(item)) batch.bytes += item.length + 3;
    for (const item of tags) if (!batch.tags.has(item)) batch.bytes += item.length + 3;
    for (const path of paths) batch.paths.add(path);
    for (const tag of tags) batch.tags.add(tag);
    schedule(batch);
    return batch.done;
  }

  return {
    add,
    /** Payloads waiting in the batch being collected (0 or more; bounded by maxItems). */
    pending: () => open?.payloads.length ?? 0,
    /** Batches sent so far. */
    sent: () => sent,
  };
}

module.exports = { createBatcher, mergePayloads };
