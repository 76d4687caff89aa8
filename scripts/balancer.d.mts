// Types of scripts/balancer.mjs, for the tests and bench/.
import type { IncomingMessage, ServerResponse } from "node:http";

export interface Balancer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export declare function startBalancer(options: {
  port?: number;
  backends: number[];
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean;
}): Promise<Balancer>;
