// The plain React Router SSR server: the official Node adapter on node:http, the built app, nothing else.
import { createServer } from "node:http";

import { createRequestListener } from "@react-router/node";

const build = await import(new URL("./build/server/index.js", import.meta.url).href);
const server = createServer(createRequestListener({ build, mode: "production" }));
server.listen(Number(process.env.PORT), "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
