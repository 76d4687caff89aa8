/**
 * A cookie's value in a Cookie request header: the first pair of that exact name (browsers send
 * the cookie of the longest path first), trimmed; undefined when there is none. The one reader of
 * the site's own cookies (preview, two-factor, known device); better-auth reads its own. Names
 * come from app/lib/cookie-names.ts.
 */
export function cookieValueOf(cookieHeader: string | null | undefined, name: string): string | undefined {
  for (const pair of (cookieHeader ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** Whether the header carries a cookie of exactly that name with a value (not `name=`). */
export function carriesCookie(cookieHeader: string | null | undefined, name: string): boolean {
  for (const pair of (cookieHeader ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name && pair.slice(at + 1).trim() !== "") return true;
  }
  return false;
}
