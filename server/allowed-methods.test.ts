import { METHODS, type IncomingMessage, type ServerResponse } from "node:http";

import { describe, expect, it } from "vitest";

import { ALLOWED_METHODS, refuseOtherMethods } from "./allowed-methods.ts";

function answer(method: string) {
  const written: { status?: number; headers?: Record<string, string>; body?: string } = {};
  const res = {
    writeHead: (status: number, headers: Record<string, string>) => Object.assign(written, { status, headers }),
    end: (body?: string) => Object.assign(written, { body }),
  };
  const refused = refuseOtherMethods({ method } as IncomingMessage, res as unknown as ServerResponse, "req-1");
  return { refused, ...written };
}

describe("refuseOtherMethods", () => {
  it.each(ALLOWED_METHODS)("lets %s through untouched", (method) => {
    expect(answer(method)).toEqual({ refused: false });
  });

  it.each(METHODS.filter((method) => !ALLOWED_METHODS.includes(method)))("answers %s with 405 and Allow", (method) => {
    const { refused, status, headers, body } = answer(method);
    expect(refused).toBe(true);
    expect(status).toBe(405);
    expect(headers).toMatchObject({ allow: "GET, HEAD, POST", "cache-control": "no-store", "x-request-id": "req-1" });
    expect(body).toMatch(/GET, HEAD, POST/);
  });
});
