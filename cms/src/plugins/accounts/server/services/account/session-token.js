"use strict";

/**
 * The verified payload of the request's Bearer JWT (`id`, `sessionId` and the claims its session
 * keeps: `authAtMs`, `twoFactorPending`; ../../users-permissions/session-check.js), or null.
 * Strapi's auth strategy has already authenticated the request and put its user in
 * ctx.state.user; some actions also need what the token's session says (how recent its provider
 * sign-in is, whether its second factor is pending). Read through the users-permissions JWT
 * service, so a session ended since is refused here as well.
 */
async function tokenPayload(jwtService, ctx, { allowTwoFactorPending = false } = {}) {
  const [scheme, token, ...rest] = String(ctx.request.header.authorization ?? "").split(/\s+/);
  if (scheme.toLowerCase() !== "bearer" || !token || rest.length > 0) return null;
  try {
    const payload = await jwtService.verify(token, { allowTwoFactorPending });
    return payload && typeof payload === "object" && payload.id !== undefined ? payload : null;
  } catch {
    return null;
  }
}

module.exports = { tokenPayload };
