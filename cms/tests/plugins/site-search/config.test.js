"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const config = require("../../../src/plugins/site-search/server/config");

const valid = (changes) => ({ ...config.default, ...changes });

// A mistyped engine or a Groonga without an address stops the CMS at start, with a message.
test("the engine is the CMS's database by default, or Groonga with its http(s) address", () => {
  assert.doesNotThrow(() => config.validator(valid({})));
  assert.doesNotThrow(() => config.validator(valid({ engine: "groonga", groongaUrl: "http://127.0.0.1:10041" })));
  assert.throws(
    () => config.validator(valid({ engine: "meilisearch" })),
    /config\.engine must be one of database, groonga/,
  );
  assert.throws(
    () => config.validator(valid({ engine: "groonga" })),
    /config\.groongaUrl must be Groonga's http\(s\) address/,
  );
  assert.throws(
    () => config.validator(valid({ engine: "groonga", groongaUrl: "file:///etc/passwd" })),
    /groongaUrl must be/,
  );
  assert.throws(
    () => config.validator(valid({ groongaTimeoutMs: 0 })),
    /config\.groongaTimeoutMs must be a positive integer/,
  );
  assert.throws(() => config.validator(valid({ retryIntervalMs: Number.NaN })), /config\.retryIntervalMs/);
});
