// The ceiling: plain node:http writing the same bytes from memory.
// node bench/plain-server.mjs <port> <body file> <br body file>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, bodyFile, brFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const br = readFileSync(brFile);
createServer((req, res) => {
  const compressed = /\bbr\b/.test(req.headers["accept-encoding"] ?? "");
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-length": compressed ? br.length : body.length,
    ...(compressed ? { "content-encoding": "br" } : {}),
  });
  res.end(compressed ? br : body);
}).listen(Number(port), "127.0.0.1", () => console.log("ready"));
