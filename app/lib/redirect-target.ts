import { canonicalPath } from "./canonical-url.ts";

/**
 * Every redirect the site builds from something it was sent or told (a CMS redirect's
 * destination, a `redirectTo` form field) goes through here, so none can lead off-site.
 * A path is reduced to its canonical form (app/lib/canonical-url.ts) before it is used:
 * leading slashes and backslashes collapse, dot segments resolve, so `//evil.example`,
 * `/\evil.example`, `/.//evil.example`, `/a/..//evil.example` and `/%2e//evil.example` all
 * become a path on this site (`/evil.example`), never another host.
 */

/**
 * A path on this site made from `value` (its canonical path, then its query and fragment as
 * they were), or null when `value` is not a path: a scheme, a host, a broken encoding, or a
 * control character (browsers drop tabs and newlines, which would turn `/\t/x` into `//x`).
 */
export function sameSitePath(value: string): string | null {
  if (!/^[/\\]/.test(value) || /[\u0000-\u001f\u007f]/.test(value)) return null;
  const queryAt = value.search(/[?#]/);
  const canonical = canonicalPath(queryAt === -1 ? value : value.slice(0, queryAt));
  if (!canonical.ok) return null;
  // The query and fragment cannot change the host; spaces are encoded so the header stays valid.
  const rest = queryAt === -1 ? "" : value.slice(queryAt).replace(/ /g, "%20");
  return `${canonical.path}${rest}`;
}

/**
 * Where a CMS redirect may send a visitor: a path on this site, or an absolute http(s) URL
 * that an editor typed on purpose. Anything else is refused (null).
 */
export function safeRedirectTarget(destination: string): string | null {
  const value = destination.trim();
  if (/^[/\\]/.test(value)) return sameSitePath(value);
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Where to go after signing in: a path on this site only, never another host. */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/account"): string {
  return (typeof value === "string" && sameSitePath(value)) || fallback;
}
