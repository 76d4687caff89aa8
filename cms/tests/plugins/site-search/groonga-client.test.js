"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  groongaClient,
  EngineError,
  EngineUnavailable,
} = require("../../../src/plugins/site-search/server/services/search/groonga-client");

/** A fetch that records what it was asked and answers `reply(url, init)`. */
function fakeFetch(reply) {
  const asked = [];
  const fetchImpl = async (url, init) => {
    asked.push({ url, init });
    return reply(url, init);
  };
  return { asked, fetchImpl };
}
const answer = (body, status = 200) => new Response(typeof body === "string" ? body : JSON.stringify(body), { status });

test("arguments travel URL-encoded, one parameter each; every call carries a time limit", async () => {
  const { asked, fetchImpl } = fakeFetch(() => answer([[0, 1, 0], true]));
  const client = groongaClient({ url: "http://groonga:10043/", timeoutMs: 50, fetchImpl });
  assert.equal(await client.command("select", { filter: 'query("x", "a&b=c")', limit: 10 }), true);
  const url = new URL(asked[0].url);
  assert.equal(url.pathname, "/d/select");
  assert.equal(url.searchParams.get("filter"), 'query("x", "a&b=c")');
  assert.equal(url.searchParams.get("limit"), "10");
  assert.ok(asked[0].init.signal instanceof AbortSignal);
});

test("no answer, a refused connection or an answer that is not Groonga's: EngineUnavailable", async () => {
  const hang = groongaClient({
    url: "http://groonga",
    timeoutMs: 20,
    fetchImpl: (url, init) =>
      new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason))),
  });
  await assert.rejects(hang.command("status"), (error) => {
    assert.ok(error instanceof EngineUnavailable);
    assert.match(error.message, /no answer within 20 ms/);
    return true;
  });
  const refused = groongaClient({
    url: "http://groonga",
    timeoutMs: 20,
    fetchImpl: async () => {
      throw new TypeError("fetch failed");
    },
  });
  await assert.rejects(refused.command("status"), EngineUnavailable);
  const proxy = groongaClient({
    url: "http://groonga",
    timeoutMs: 20,
    fetchImpl: async () => answer("<h1>502</h1>", 502),
  });
  await assert.rejects(proxy.command("status"), EngineUnavailable);
  const other = groongaClient({ url: "http://groonga", timeoutMs: 20, fetchImpl: async () => answer({ ok: true }) });
  await assert.rejects(other.command("status"), EngineUnavailable);
});

test("Groonga's own error, and a load that did not take every row: EngineError with Groonga's message", async () => {
  const failing = groongaClient({
    url: "http://groonga",
    timeoutMs: 20,
    fetchImpl: async () => answer([[-22, 1, 0, "nonexistent table: <X>"], false], 400),
  });
  await assert.rejects(failing.command("select", { table: "X" }), (error) => {
    assert.ok(error instanceof EngineError);
    assert.equal(error.message, "Groonga select: nonexistent table: <X>");
    return true;
  });
  const { asked, fetchImpl } = fakeFetch(() => answer([[0, 1, 0], 1]));
  const loader = groongaClient({ url: "http://groonga", timeoutMs: 20, fetchImpl });
  await loader.load("T", [{ _key: "a" }]);
  assert.equal(asked[0].init.method, "POST");
  assert.deepEqual(JSON.parse(asked[0].init.body), [{ _key: "a" }]);
  await assert.rejects(loader.load("T", [{ _key: "a" }, { _key: "b" }]), /1 of 2 rows/);
});
