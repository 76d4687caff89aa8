"use strict";

const { AsyncLocalStorage } = require("node:async_hooks");

/**
 * An editor's takedown is answered only once the site has heard of it (decision 0010): the
 * document middleware cannot wait itself, because the admin's unpublish runs in a transaction
 * whose commit (and so the revalidation) comes after the middleware has returned. So the request
 * waits one level up: `answerAfterHeldWork` (a Koa middleware, before the routes) answers a
 * request once everything `holdAnswerUntil` was given while it ran has settled. The held promises
 * are bounded by whoever holds them (revalidation/sending.js, `waitMs`) and never reject. Outside a
 * request (a script, a cron job) `holdAnswerUntil` does nothing.
 */
const storage = new AsyncLocalStorage();

function holdAnswerUntil(promise) {
  storage.getStore()?.push(promise);
}

async function answerAfterHeldWork(ctx, next) {
  const held = [];
  try {
    await storage.run(held, next);
  } finally {
    // Work held while waiting (none is expected) is waited for too.
    while (held.length) await Promise.allSettled(held.splice(0));
  }
}

module.exports = { holdAnswerUntil, answerAfterHeldWork };
