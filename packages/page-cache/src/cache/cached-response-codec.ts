import type { CachedResponse } from "./response-cache.ts";

/** CachedResponse ⇄ text for Redis: the bodies as base64. */
export const cachedResponseCodec = {
  encode(value: CachedResponse): string {
    return JSON.stringify({
      ...value,
      body: value.body.toString("base64"),
      br: value.br?.toString("base64"),
      gzip: value.gzip?.toString("base64"),
    });
  },
  decode(text: string): CachedResponse {
    const raw = JSON.parse(text) as Omit<CachedResponse, "body" | "br" | "gzip"> & {
      body: string;
      br?: string;
      gzip?: string;
    };
    return {
      ...raw,
      body: Buffer.from(raw.body, "base64"),
      br: raw.br === undefined ? undefined : Buffer.from(raw.br, "base64"),
      gzip: raw.gzip === undefined ? undefined : Buffer.from(raw.gzip, "base64"),
    };
  },
};
