"use strict";

/**
 * Sends one payload to the front end: POST <clientUrl>/api/cms-revalidate with
 * `Authorization: Bearer <secret>`. Every attempt has a timeout; network errors, timeouts,
 * 429 and 5xx are retried with exponential backoff (base * 2^n, capped); a 401 is a secret
 * mismatch (logged loudly, never retried); other 4xx are not retried either (the payload
 * would be refused again). fetch and sleep are injected so the tests need no network or clock.
 *
 * Resolves (never rejects) to { ok, status, attempts, body?, error?, retryable }.
 */
function createRevalidationClient({
  clientUrl,
  secret,
  fetch: fetchImpl = globalThis.fetch,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeoutMs = 5_000,
  retries = 3,
  baseDelayMs = 500,
  maxDelayMs = 10_000,
  log = console,
} = {}) {
  const url = `${String(clientUrl ?? "").replace(/\/+$/, "")}/api/cms-revalidate`;

  const delayFor = (retry) => Math.min(maxDelayMs, baseDelayMs * 2 ** retry);

  async function attempt(payload) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    try {
      const response = await fetchImpl(url, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify(payload),
        signal: controller.signal,
      });
      const text = await response.text().catch(() => "");
      let body = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body };
    } catch (error) {
      const reason = controller.signal.aborted
        ? (controller.signal.reason?.message ?? "timed out")
        : (error?.cause?.code ?? error?.message ?? String(error));
      return { status: 0, error: reason };
    } finally {
      clearTimeout(timer);
    }
  }

  async function send(payload, { retries: maxRetries = retries } = {}) {
    let result;
    for (let tries = 0; ; tries += 1) {
      result = await attempt(payload);
      const { status } = result;
      if (status >= 200 && status < 300)
        return { ok: true, status, attempts: tries + 1, body: result.body, retryable: false };
      if (status === 401) {
        log.error(
          `[revalidate] ${url} answered 401: CMS_REVALIDATE_SECRET on the CMS does not match the front end's. ` +
            "Not retried; recorded as a failed revalidation.",
        );
        return {
          ok: false,
          status,
          attempts: tries + 1,
          body: result.body,
          error: "secret mismatch (401)",
          retryable: false,
        };
      }
      const retryable = status === 0 || status === 429 || status >= 500;
      if (!retryable) {
        return {
          ok: false,
          status,
          attempts: tries + 1,
          body: result.body,
          error: `refused with ${status}`,
          retryable: false,
        };
      }
      if (tries >= maxRetries) {
        return {
          ok: false,
          status,
          attempts: tries + 1,
          body: result.body,
          error: result.error ?? `answered ${status}`,
          retryable: true,
        };
      }
      const delay = delayFor(tries);
      log.warn(`[revalidate] attempt ${tries + 1} failed (${result.error ?? status}); retrying in ${delay} ms`);
      await sleep(delay);
    }
  }

  return { url, send, delayFor };
}

module.exports = { createRevalidationClient };
