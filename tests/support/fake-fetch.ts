/**
 * A fetch for unit tests: records each request and answers what the test says (a Response,
 * or a promise of one: a rejection stands for a network error). `silentFetch` never answers
 * and rejects once the request's signal aborts, as the real fetch does on a timeout.
 */
export interface FakeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The body, parsed when it is JSON. */
  body: unknown;
  signal: AbortSignal | undefined;
}

export function fakeFetch(answer: (request: FakeRequest) => Response | Promise<Response>) {
  const requests: FakeRequest[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const text = typeof init.body === "string" ? init.body : undefined;
    const request: FakeRequest = {
      url: String(input),
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: text === undefined ? undefined : parseJson(text),
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    return answer(request);
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An answer that never comes: rejects with the signal's reason once it aborts. */
export function silentAnswer({ signal }: FakeRequest): Promise<Response> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener("abort", () => reject(signal.reason));
  });
}

/** A Strapi error answer: `{ data: null, error: { status, name, message, details } }`. */
export function strapiError(status: number, message: string, details: unknown = {}): Response {
  return Response.json({ data: null, error: { status, name: "ApplicationError", message, details } }, { status });
}
