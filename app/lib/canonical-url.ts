/**
 * One spelling per address. Every request path is reduced to its canonical form before
 * anything else looks at it (server/app.ts): the cache key, the render and every redirect the
 * site builds come from that one form, and any other spelling of it gets a 308 to it. So
 * `//company`, `/%63ompany`, `/en//company`, `/company/` and `/x/../company` are all asked for
 * as `/company`, and a revalidation of `/company` reaches every way of asking for it.
 *
 * The canonical form: `/` followed by segments joined with single slashes; no empty, `.` or
 * `..` segment (they are resolved as a browser would); a backslash counts as a slash (browsers
 * read it so); each segment percent-encoded exactly as encodeURIComponent does, minus the
 * sub-delimiters a path may carry as they are. It never starts with `//` or `/\`, so as a
 * `Location` it always stays on this site.
 */

/** Characters encodeURIComponent escapes that a path segment may carry as they are (RFC 3986 pchar). */
const KEEP = /%(24|26|2B|2C|3B|3D|3A|40)/g;
const KEPT: Record<string, string> = {
  "%24": "$",
  "%26": "&",
  "%2B": "+",
  "%2C": ",",
  "%3B": ";",
  "%3D": "=",
  "%3A": ":",
  "%40": "@",
};

export type CanonicalPath =
  | { ok: true; path: string }
  /** A segment that does not decode, or decodes to a slash, a backslash or a control character. */
  | { ok: false; reason: string };

function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(KEEP, (escape) => KEPT[escape]!);
}

/**
 * The canonical form of a request path (the part before `?`, as it arrived: percent-encoded,
 * possibly with backslashes and dot segments).
 */
export function canonicalPath(rawPath: string): CanonicalPath {
  const segments: string[] = [];
  for (const raw of rawPath.split(/[/\\]/)) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, reason: "The address contains a broken percent-encoding." };
    }
    if (/[/\\\u0000-\u001f\u007f]/.test(segment)) {
      return { ok: false, reason: "The address contains an encoded slash or a control character." };
    }
    if (segment === ".") continue;
    if (segment === "..") {
      segments.pop();
      continue;
    }
    segments.push(encodeSegment(segment));
  }
  return { ok: true, path: `/${segments.join("/")}` };
}
