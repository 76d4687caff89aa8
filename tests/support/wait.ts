/**
 * Asks `read` again every `intervalMs` until `found` accepts what it returns, and returns that;
 * throws naming `what` (and the last value) after `timeoutMs`. For waiting on a condition the
 * test can observe (a log line, a counter, a page that changed), never for "long enough".
 */
export async function until<T>(
  what: string,
  read: () => T | Promise<T>,
  found: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (found(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)?.slice(0, 300)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
