import { localizedPath, type LocaleConfig } from "../locale-path.ts";
import { sameSitePath } from "../redirect-target.ts";
import { checkPreviewLink } from "./preview-link.server.ts";

/**
 * What GET /api/preview?path=…&locale=…&status=draft|published&type=…&document=…&expires=…&signature=…
 * asks for (docs/cms-contract.md, "Preview"), checked in this order: the link's signature (401:
 * missing, forged or altered) and expiry (410), then the status and the path (400), then the
 * locale (404). Only then is the answer a redirect to a path on this site, never anywhere else.
 */
export type PreviewRequest =
  | { ok: true; enter: boolean; location: string; type: string; document: string }
  | { ok: false; status: 400 | 401 | 404 | 410 | 503; message: string };

const MAX_PATH_LENGTH = 2048;

export function readPreviewRequest(
  params: URLSearchParams,
  secret: string | undefined,
  config: LocaleConfig,
  nowMs = Date.now(),
): PreviewRequest {
  if (!secret) {
    return { ok: false, status: 503, message: "Preview is not configured on this site (CMS_PREVIEW_SECRET is unset)." };
  }
  const link = checkPreviewLink(params, secret, nowMs);
  if (!link.ok) return link;
  const status = link.fields.status || "draft";
  if (status !== "draft" && status !== "published") {
    return { ok: false, status: 400, message: `status must be draft or published, not ${JSON.stringify(status)}.` };
  }
  const given = link.fields.path;
  if (!given) return { ok: false, status: 400, message: "path is missing: the page's path, such as /company." };
  const path = given.length <= MAX_PATH_LENGTH ? sameSitePath(given.replace(/[?#].*$/s, "")) : null;
  // Only a page's path as the CMS writes it: `//x`, `/a/../x` or `/x/` are refused, not repaired.
  if (!path || !samePath(path, given.replace(/[?#].*$/s, ""))) {
    return {
      ok: false,
      status: 400,
      message: "path must be a page's path on this site, such as /company (no scheme, host, // or dot segments).",
    };
  }
  const first = path.split("/")[1] ?? "";
  if (first === "api" || config.locales.includes(first)) {
    return {
      ok: false,
      status: 400,
      message: `path must be a page's path without its locale, such as /company (locale= gives the locale), not ${path}.`,
    };
  }
  const locale = link.fields.locale || config.defaultLocale;
  if (!config.locales.includes(locale)) {
    return {
      ok: false,
      status: 404,
      message: `This site has no locale ${JSON.stringify(locale)} (it serves ${config.locales.join(", ")}).`,
    };
  }
  return {
    ok: true,
    enter: status === "draft",
    location: localizedPath(path, locale, config),
    type: link.fields.type,
    document: link.fields.document,
  };
}

/** Whether two spellings of a path differ only in percent-encoding (`/café` and `/caf%C3%A9`). */
function samePath(canonical: string, given: string): boolean {
  try {
    return decodeURI(canonical) === decodeURI(given);
  } catch {
    return false;
  }
}

/**
 * Where GET /api/preview/exit?path=… leads: the page it was left from, when that is a path on
 * this site, else the home page.
 */
export function exitLocation(params: URLSearchParams): string {
  const given = params.get("path");
  return (given && given.length <= MAX_PATH_LENGTH && sameSitePath(given.replace(/[?#].*$/s, ""))) || "/";
}
