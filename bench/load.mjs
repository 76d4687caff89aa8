// One autocannon run, printed as JSON: node bench/load.mjs <url> <seconds> [header=value ...]
import autocannon from "autocannon";

const [url, seconds, ...headerArgs] = process.argv.slice(2);
const headers = Object.fromEntries(headerArgs.map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
const result = await autocannon({ url, duration: Number(seconds), connections: 50, pipelining: 1, headers });
console.log(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  }),
);
