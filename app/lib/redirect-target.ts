/**
 * Where a CMS redirect may send a visitor: a path on this site (`/jobs`, not `//evil.example`
 * or `/\evil.example`, which browsers treat as another host) or an absolute http(s) URL that
 * an editor typed on purpose. Anything else is refused (null).
 */
export function safeRedirectTarget(destination: string): string | null {
  const value = destination.trim();
  if (value.startsWith("/")) {
    return /^\/[/\\]/.test(value) || /[\u0000-\u001f]/.test(value) ? null : value;
  }
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}
