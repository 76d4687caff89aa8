export type CmsErrorKind =
  /** Network error, refused connection, timeout, or the CMS said 503. */
  | "unavailable"
  /** Not JSON, or JSON in a shape we do not understand. */
  | "bad-response"
  /** The CMS said 404 (for example a single type with no entry yet). */
  | "not-found"
  /** The CMS refused the credentials: a per-user JWT (401) or our API token (401/403). */
  | "unauthorized"
  /** Any other error status from the CMS. */
  | "failed";

/** A CMS call that failed, with the HTTP status a page should answer with. */
export class CmsError extends Error {
  readonly status: number;

  constructor(
    readonly kind: CmsErrorKind,
    message: string,
    options?: { cause?: unknown; cmsStatus?: number },
  ) {
    super(message, { cause: options?.cause });
    this.name = "CmsError";
    this.cmsStatus = options?.cmsStatus;
    this.status = kind === "unavailable" ? 503 : kind === "not-found" ? 404 : 502;
  }

  readonly cmsStatus: number | undefined;

  static fromStatus(cmsStatus: number, path: string, perUser: boolean): CmsError {
    if (cmsStatus === 404) return new CmsError("not-found", `The CMS has nothing at ${path}.`, { cmsStatus });
    if (cmsStatus === 503 || cmsStatus === 429) {
      return new CmsError("unavailable", `The CMS is busy or unavailable (${cmsStatus} on ${path}).`, { cmsStatus });
    }
    if (cmsStatus === 401 || cmsStatus === 403) {
      return new CmsError(
        "unauthorized",
        perUser
          ? `The CMS refused the user's session (${cmsStatus} on ${path}).`
          : `The CMS refused the front end's API token (${cmsStatus} on ${path}): check CMS_REST_READONLY_API_KEY and the token's permissions.`,
        { cmsStatus },
      );
    }
    return new CmsError("failed", `The CMS answered ${cmsStatus} on ${path}.`, { cmsStatus });
  }
}

/** What a visitor is told when a page cannot be built because of the CMS. */
export function publicCmsErrorMessage(error: CmsError): string {
  return error.status === 503
    ? "The content service is temporarily unavailable. Please try again in a moment."
    : "The content service sent an answer we could not use. Please try again later.";
}
