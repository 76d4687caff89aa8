"use strict";

/**
 * Groonga's HTTP interface (`groonga --protocol http`, https://groonga.org/docs/reference/command.html):
 * `GET <url>/d/<command>?<arguments>` and `POST <url>/d/load?table=` with the rows as JSON. Every
 * argument travels as a URL parameter or a JSON value, never spliced into a command line. Every
 * call is bounded by `timeoutMs`. An answer is `[[returnCode, started, elapsed, message?], body]`.
 *
 * EngineUnavailable: Groonga did not answer (refused, reset, timed out, not Groonga's JSON): the
 * route answers 503 and the index writes wait for a retry. EngineError: Groonga answered with an
 * error (a bug of ours or a damaged database): logged with Groonga's own message.
 */
class EngineUnavailable extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "EngineUnavailable";
  }
}

class EngineError extends Error {
  constructor(message, code) {
    super(message);
    this.name = "EngineError";
    this.code = code;
  }
}

function groongaClient({ url, timeoutMs, fetchImpl = fetch }) {
  const base = url.replace(/\/+$/, "");

  async function call(command, args, init = {}) {
    const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
    const target = `${base}/d/${command}?${query}`;
    let response;
    let text;
    try {
      response = await fetchImpl(target, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      text = await response.text();
    } catch (error) {
      const reason = error?.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : error.message;
      throw new EngineUnavailable(`Groonga at ${base} is not reachable (${command}: ${reason})`, { cause: error });
    }
    let answer;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new EngineUnavailable(`Groonga at ${base} answered ${command} with HTTP ${response.status}, not JSON`);
    }
    const header = Array.isArray(answer) && Array.isArray(answer[0]) ? answer[0] : null;
    if (!header)
      throw new EngineUnavailable(`Groonga at ${base} answered ${command} with something else than Groonga's JSON`);
    if (header[0] !== 0)
      throw new EngineError(`Groonga ${command}: ${header[3] ?? `return code ${header[0]}`}`, header[0]);
    return answer[1];
  }

  return {
    base,
    command: (name, args = {}) => call(name, args),
    /** The rows loaded into `table`, all of them or an EngineError (Groonga answers how many it took). */
    async load(table, rows) {
      const loaded = await call(
        "load",
        { table, output_type: "json" },
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(rows) },
      );
      if (loaded !== rows.length)
        throw new EngineError(`Groonga load into ${table}: ${loaded} of ${rows.length} rows`, 0);
    },
  };
}

module.exports = { groongaClient, EngineUnavailable, EngineError };
