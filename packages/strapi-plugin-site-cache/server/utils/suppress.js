"use strict";

const { AsyncLocalStorage } = require("node:async_hooks");

/**
 * Writes made by the CMS itself as part of a batch (the redirects of a hierarchy batch) run
 * inside `withoutRevalidation`: the revalidation middleware skips them, the batch revalidates
 * everything it touched once.
 */
const storage = new AsyncLocalStorage();
const withoutRevalidation = (fn) => storage.run(true, fn);
const revalidationSuppressed = () => storage.getStore() === true;

module.exports = { withoutRevalidation, revalidationSuppressed };
