// One autocannon run, printed as JSON: node bench/load.mjs <url> <seconds> [header=value ...]
// A `{n}` in the URL becomes a new number on every request (distinct tracking parameters).
import autocannon from "autocannon";

const [url, seconds, ...headerArgs] = process.argv.slice(2);
const headers = Object.fromEntries(headerArgs.map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
let n = 0;
const distinct = url.includes("{n}");
const target = new URL(url.replace("{n}", "0"));
const result = await autocannon({
  url: target.origin,
  duration: Number(seconds),
  connections: 50,
  pipelining: 1,
  headers,
  requests: [
    {
      setupRequest: (request) => ({
        ...request,
        path: distinct
          ? `${target.pathname}${target.search.replace(/0$/, "")}${n++}`
          : `${target.pathname}${target.search}`,
      }),
    },
  ],
});
console.log(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  }),
);
