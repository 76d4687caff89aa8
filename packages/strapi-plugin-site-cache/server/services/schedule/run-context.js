"use strict";

const { AsyncLocalStorage } = require("node:async_hooks");

/**
 * The time a scheduled publish was due, for the code its publish runs through (an article's
 * publishDate is the scheduled time, not the minute the tick came: src/articles/publish-date.js).
 * Outside a scheduled publish, null.
 */
const storage = new AsyncLocalStorage();

const runScheduled = (at, work) => storage.run({ at }, work);
const scheduledTime = () => storage.getStore()?.at ?? null;

module.exports = { runScheduled, scheduledTime };
