import { bearerMatches } from "./bearer-secret.ts";
import { BodyTooLargeError, readBodyWithLimit } from "./read-body.ts";

/**
 * The front half of every secret-protected JSON endpoint the CMS calls, in the order
 * that matters: configured? (503) → Bearer secret, in constant time, before the body is
 * touched (401, connection closed) → body size (413) → JSON (400).
 */
export interface SecuredPostOptions {
  secret: string | undefined;
  /** The variable's name, for messages a person can act on. */
  secretName: string;
  bodyLimit: number;
  log: (line: string) => void;
  logPrefix: string;
}

export function jsonAnswer(body: unknown, status: number, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

export async function readSecuredJson(
  request: Request,
  options: SecuredPostOptions,
): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  if (!options.secret) {
    return {
      ok: false,
      response: jsonAnswer(
        {
          error: `This endpoint is not configured: set ${options.secretName} on the front end (and the same value on the CMS).`,
        },
        503,
      ),
    };
  }
  if (!bearerMatches(request.headers.get("authorization"), options.secret)) {
    options.log(`${options.logPrefix} refused: missing or wrong secret`);
    return {
      ok: false,
      response: jsonAnswer(
        { error: `Missing or wrong secret: send Authorization: Bearer <${options.secretName}>.` },
        401,
        {
          "www-authenticate": "Bearer",
          connection: "close",
        },
      ),
    };
  }
  let text: string;
  try {
    text = await readBodyWithLimit(request, options.bodyLimit);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    return {
      ok: false,
      response: jsonAnswer({ error: `The body is too large: at most ${options.bodyLimit} bytes.` }, 413, {
        connection: "close",
      }),
    };
  }
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false, response: jsonAnswer({ error: "The body is not valid JSON." }, 400) };
  }
}
