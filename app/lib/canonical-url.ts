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
 *
 * Letter case: React Router matches a route's path in any case (`/ACCOUNT` renders the account
 * page), but what decides about a path afterwards (the page cache's isCacheablePath,
 * isAuthPagePath, the preview's framing) compares exact strings. So the literal segments of the
 * site's own routes (app/routes.ts) have one spelling, the route's: `/Account` is another spelling
 * of `/account` and gets the 308 like `//account` does (routeLetterCase). CMS pages keep their
 * case: a slug may carry capitals (the page schema allows `A-Z`) and the CMS looks a fullPath up
 * exactly, so `/Team` and `/team` are two addresses there, each a page or a 404.
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
 * Gives the literal segments of the site's own routes their route's spelling, in place
 * (segments as canonicalPath makes them). Made once by routeLetterCase.
 */
export type LetterCase = (segments: string[]) => void;

/**
 * The letter case of the site's own routes, from their paths as React Router spells them
 * (`api/auth/*`, `:lang/sign-in`, `sitemap/:part`): a request path that one of them matches in
 * any case, as React Router matches it, gets that route's literal segments in the route's
 * spelling; `:param`, `*` and the catch-all of CMS pages keep the case they came with
 * (`/uploads/Photo.JPG`, a token in `/api/auth/...`). A `.data` request is matched like its
 * page, as React Router does (`/Account.data` is `/account.data`).
 */
export function routeLetterCase(routePaths: readonly string[]): LetterCase {
  const patterns = routePaths
    .flatMap((path) => withoutOptionals(path.split("/").filter(Boolean)))
    .map(toPattern)
    .filter((pattern) => pattern.literals.length > 0);
  return (segments) => {
    const last = segments.length - 1;
    const data = last >= 0 && segments[last]!.endsWith(".data");
    // `/a.data` is the page `/a`; `/_.data` and `/a/_.data` are `/` and `/a/` (React Router 8).
    const slashData = data && segments[last] === "_.data";
    const page = !data
      ? segments
      : slashData
        ? segments.slice(0, last)
        : [...segments.slice(0, last), segments[last]!.slice(0, -".data".length)];
    // `/x/.data` is the page `/x` to React Router (it drops the trailing slash left behind).
    if (data && !slashData && page[last] === "") page.pop();
    const lower = page.map((segment) => segment.toLowerCase());
    for (const pattern of patterns) {
      if (!matches(pattern, lower)) continue;
      for (const [index, literal] of pattern.literals) page[index] = literal;
    }
    if (slashData) segments.splice(0, segments.length, ...page, "_.data");
    else if (data) segments.splice(0, segments.length, ...page.slice(0, last), `${page[last] ?? ""}.data`);
  };
}

/** A route path as the matcher reads it: its literal segments by position, its length, a trailing splat. */
interface Pattern {
  /** Position, spelling, and the spelling in lower case (what a request's segment is compared with). */
  literals: Array<[index: number, literal: string, lower: string]>;
  length: number;
  splat: boolean;
}

function toPattern(segments: string[]): Pattern {
  const splat = segments.at(-1) === "*";
  const fixed = splat ? segments.slice(0, -1) : segments;
  const literals = fixed.flatMap((segment, index): Pattern["literals"] =>
    segment.startsWith(":") ? [] : [[index, segment, segment.toLowerCase()]],
  );
  return { literals, length: fixed.length, splat };
}

/** React Router's optional segments (`:lang?`, `docs?`): a pattern with and one without each. */
function withoutOptionals(pattern: string[]): string[][] {
  const at = pattern.findIndex((segment) => segment.endsWith("?"));
  if (at === -1) return [pattern];
  const required = [...pattern.slice(0, at), pattern[at]!.slice(0, -1), ...pattern.slice(at + 1)];
  return [...withoutOptionals(required), ...withoutOptionals([...pattern.slice(0, at), ...pattern.slice(at + 1)])];
}

/**
 * As React Router matches: literals in any ASCII case (its case-insensitive match never makes a
 * non-ASCII letter equal an ASCII one, and canonical segments carry non-ASCII percent-encoded),
 * `:param` any one segment, a trailing `*` any rest, even none.
 */
function matches(pattern: Pattern, lower: string[]): boolean {
  if (pattern.splat ? lower.length < pattern.length : lower.length !== pattern.length) return false;
  for (const [index, , literal] of pattern.literals) if (lower[index] !== literal) return false;
  return true;
}

/**
 * The canonical form of a request path (the part before `?`, as it arrived: percent-encoded,
 * possibly with backslashes and dot segments). With `letterCase`, the site's own routes also
 * get their one letter case (request paths; a redirect target or a page URL needs none).
 */
export function canonicalPath(rawPath: string, letterCase?: LetterCase): CanonicalPath {
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
  letterCase?.(segments);
  return { ok: true, path: `/${segments.join("/")}` };
}
