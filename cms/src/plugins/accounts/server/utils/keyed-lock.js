"use strict";

/**
 * Runs tasks with the same key one after the other, in the order they came; tasks with different
 * keys run side by side. In-process only: it serialises the OAuth syncs of one CMS process (see
 * services/oauth-sync.js for why that is enough and what covers several processes).
 */
function createKeyedLock() {
  /** key → the promise the next task with that key waits for */
  const tails = new Map();
  return {
    /** @template T @param {string} key @param {() => Promise<T>} task @returns {Promise<T>} */
    async run(key, task) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release;
      const mine = new Promise((resolve) => (release = resolve));
      const tail = previous.then(() => mine);
      tails.set(key, tail);
      await previous;
      try {
        return await task();
      } finally {
        release();
        // The last task of its key leaves no entry behind.
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
    /** How many keys have a task running or waiting (for tests). */
    get size() {
      return tails.size;
    },
  };
}

module.exports = { createKeyedLock };
