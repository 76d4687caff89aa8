/** Thrown when a request body is larger than allowed: answer 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The body is larger than ${limit} bytes.`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * Reads a request body as text, refusing (before reading) a declared Content-Length over
 * the limit and stopping (without reading the rest) as soon as the bytes read pass it.
 */
export async function readBodyWithLimit(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new BodyTooLargeError(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
