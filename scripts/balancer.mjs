// A small round-robin HTTP load balancer: each request goes to the next backend (per request, not
// per connection, so one keep-alive client still reaches every backend), with X-Forwarded-For
// set and the backend's port in the answer's X-Instance header. For `npm run start:cluster` and the
// tests; not for production (docker-compose.yml uses nginx).
import { createServer, request } from "node:http";

/**
 * Listens on 127.0.0.1:`port` (0: any free port) and forwards to `backends` (ports on
 * 127.0.0.1), in turn. `intercept(req, res)`, when given, sees each request first and returns true
 * when it answered it itself (a test's recorder or fault). Resolves with `{ url, port, stop() }`.
 */
export function startBalancer({ port = 0, backends, intercept }) {
  let next = 0;
  const server = createServer((req, res) => {
    if (intercept?.(req, res)) return;
    const backendPort = backends[next++ % backends.length];
    const upstream = request(
      {
        host: "127.0.0.1",
        port: backendPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": req.socket.remoteAddress },
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, { ...response.headers, "x-instance": String(backendPort) });
        response.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end("instance unavailable");
      else res.destroy();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      resolve({
        url: `http://127.0.0.1:${actual}`,
        port: actual,
        stop: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
