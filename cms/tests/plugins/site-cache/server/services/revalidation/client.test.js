"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  createRevalidationClient,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/client");

const quiet = { info() {}, warn() {}, error() {} };
const payload = { uid: "api::page.page", next: { fullPaths: ["/careers"] } };

function harness(answers, opts = {}) {
  const calls = [];
  const sleeps = [];
  const errors = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    if (answer === "hang") {
      return new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(new Error("aborted"))));
    }
    return new Response(JSON.stringify({ answer }), { status: answer });
  };
  const client = createRevalidationClient({
    clientUrl: "http://front.test/",
    secret: "s3cret",
    fetch,
    sleep: async (ms) => sleeps.push(ms),
    retries: 3,
    baseDelayMs: 100,
    log: { ...quiet, error: (line) => errors.push(line) },
    ...opts,
  });
  return { client, calls, sleeps, errors };
}

test("one POST with the Bearer secret and the JSON payload", async () => {
  const { client, calls, sleeps } = harness([200]);
  const result = await client.send(payload);
  assert.equal(result.ok, true);
  assert.equal(result.attempts, 1);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, "http://front.test/api/cms-revalidate");
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.headers.authorization, "Bearer s3cret");
  assert.deepEqual(JSON.parse(calls[0].init.body), payload);
  assert.deepEqual(sleeps, []);
});

test("5xx and network errors are retried with exponential backoff", async () => {
  const { client, calls, sleeps } = harness([
    500,
    Object.assign(new Error("fetch failed"), { cause: { code: "ECONNREFUSED" } }),
    503,
    200,
  ]);
  const result = await client.send(payload);
  assert.equal(result.ok, true);
  assert.equal(result.attempts, 4);
  assert.equal(calls.length, 4);
  assert.deepEqual(sleeps, [100, 200, 400]);
});

test("gives up after the retries, retryable", async () => {
  const { client, calls, sleeps } = harness([502]);
  const result = await client.send(payload);
  assert.equal(result.ok, false);
  assert.equal(result.retryable, true);
  assert.equal(result.status, 502);
  assert.equal(calls.length, 4);
  assert.deepEqual(sleeps, [100, 200, 400]);
});

test("backoff is capped", () => {
  const { client } = harness([200], { baseDelayMs: 1000, maxDelayMs: 3000 });
  assert.deepEqual([0, 1, 2, 3].map(client.delayFor), [1000, 2000, 3000, 3000]);
});

test("401: logged loudly as a secret mismatch, not retried", async () => {
  const { client, calls, errors } = harness([401, 200]);
  const result = await client.send(payload);
  assert.equal(result.ok, false);
  assert.equal(result.status, 401);
  assert.equal(result.retryable, false);
  assert.equal(calls.length, 1);
  assert.match(errors.join("\n"), /CMS_REVALIDATE_SECRET.*does not match/);
});

test("400 is not retried", async () => {
  const { client, calls } = harness([400, 200]);
  const result = await client.send(payload);
  assert.equal(result.ok, false);
  assert.equal(result.retryable, false);
  assert.equal(calls.length, 1);
});

test("every attempt has a timeout", async () => {
  const { client, calls } = harness(["hang", 200], { timeoutMs: 20 });
  const result = await client.send(payload);
  assert.equal(result.ok, true);
  assert.equal(calls.length, 2);
  const onlyHangs = harness(["hang"], { timeoutMs: 10, retries: 1 });
  const failed = await onlyHangs.client.send(payload);
  assert.equal(failed.ok, false);
  assert.match(failed.error, /timed out/);
});
