import type { CmsCredential } from "./http.server.ts";

export type CmsErrorKind =
  /** Network error, refused connection, timeout, or the CMS said 503 or 429. */
  | "unavailable"
  /** Not JSON, or JSON in a shape we do not understand. */
  | "bad-response"
  /** The CMS said 404 (for example a single type with no entry yet). */
  | "not-found"
  /** The CMS refused the credentials: a per-user JWT (401) or our API token (401/403). */
  | "unauthorized"
  /** Any other error status from the CMS. */
  | "failed";

/** What Strapi says in an error answer: `{ data: null, error: { status, name, message, details } }`. */
export interface StrapiError {
  name: string;
  message: string;
  details: unknown;
}

export interface CmsErrorOptions {
  cause?: unknown;
  /** The status the CMS answered with (none: it did not answer, or answered 2xx). */
  cmsStatus?: number;
  /** The error Strapi described in its answer's body, when it sent one. */
  strapiError?: StrapiError;
  /** The CMS did not answer within the call's time limit. */
  timedOut?: boolean;
}

/** A CMS call that failed, with the HTTP status a page should answer with. */
export class CmsError extends Error {
  readonly status: number;
  readonly cmsStatus: number | undefined;
  readonly strapiError: StrapiError | undefined;
  readonly timedOut: boolean;

  constructor(
    readonly kind: CmsErrorKind,
    message: string,
    options: CmsErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "CmsError";
    this.cmsStatus = options.cmsStatus;
    this.strapiError = options.strapiError;
    this.timedOut = options.timedOut ?? false;
    this.status = kind === "unavailable" ? 503 : kind === "not-found" ? 404 : 502;
  }

  /**
   * An error status of the CMS, in the vocabulary above. `credential` is what the call carried
   * (app/lib/cms/http.server.ts); it only changes what the message tells the operator to check.
   */
  static fromStatus(cmsStatus: number, path: string, credential?: CmsCredential, strapiError?: StrapiError): CmsError {
    const options = { cmsStatus, strapiError };
    if (cmsStatus === 404) return new CmsError("not-found", `The CMS has nothing at ${path}.`, options);
    if (cmsStatus === 503 || cmsStatus === 429) {
      return new CmsError("unavailable", `The CMS is busy or unavailable (${cmsStatus} on ${path}).`, options);
    }
    if (cmsStatus === 401 || cmsStatus === 403) {
      return new CmsError("unauthorized", refusedMessage(cmsStatus, path, credential), options);
    }
    return new CmsError("failed", `The CMS answered ${cmsStatus} on ${path}.`, options);
  }
}

function refusedMessage(cmsStatus: number, path: string, credential: CmsCredential | undefined): string {
  const where = `${cmsStatus} on ${path}`;
  if (!credential) return `The CMS refused the call (${where}).`;
  if ("userJWT" in credential) return `The CMS refused the user's session (${where}).`;
  if ("apiToken" in credential) {
    return `The CMS refused the front end's API token (${where}): check CMS_REST_READONLY_API_KEY and the token's permissions.`;
  }
  return `The CMS refused the call made with ${credential.variable} (${where}).`;
}

/** What a visitor is told when a page cannot be built because of the CMS. */
export function publicCmsErrorMessage(error: CmsError): string {
  return error.status === 503
    ? "The content service is temporarily unavailable. Please try again in a moment."
    : "The content service sent an answer we could not use. Please try again later.";
}
