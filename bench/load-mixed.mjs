// A mixed autocannon run, printed as JSON:
//   node bench/load-mixed.mjs <base url> <seconds> <json list of {path, headers}>
import autocannon from "autocannon";

const [base, seconds, requestsJson] = process.argv.slice(2);
const requests = JSON.parse(requestsJson).map((request) => ({ method: "GET", ...request }));
const result = await autocannon({ url: base, duration: Number(seconds), connections: 50, requests });
console.log(
  JSON.stringify({
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }),
);
