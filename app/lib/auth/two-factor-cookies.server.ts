import { symmetricDecodeJWT, symmetricEncodeJWT } from "better-auth/crypto";
import * as z from "zod";

import { cmsUserSchema, type CmsAuth } from "./cms-users.server.ts";
import { cookieNames } from "../cookie-names.ts";
import { cookieValueOf, setCookieHeader, setCookieIn, type CookieAttributes } from "../cookies.server.ts";

/**
 * The two short-lived cookies of two-factor authentication, sealed the way better-auth seals its
 * session cookie (a JWE, `dir` + A256CBC-HS512, with a key derived by HKDF from
 * SESSION_AUTH_SECRET; better-auth/crypto), each with its own salt so that neither can stand in
 * for the other or for the session cookie:
 *
 * - **pending sign-in**: after a correct password for an account with two-factor on, what the
 *   second step needs to finish (the CMS JWT, its user, "remember me"). The browser holds it
 *   but cannot read it; it lasts 5 minutes (Max-Age and the JWE's own `exp`, and `iat` is
 *   checked again here without the JWE's clock tolerance) and is used once (the step records
 *   its `jti`: plugins/two-factor.server.ts);
 * - **recovery codes to show**: the codes the CMS just made, carried over the redirect after
 *   enabling (post/redirect/get) to the page that shows them once and expires the cookie.
 *
 * Both are HttpOnly, SameSite=Lax, `Path=/`, and on https `__Host-` named and Secure
 * (app/lib/cookie-names.ts): a sibling subdomain can then plant no pending sign-in of its own that
 * would be read before the real one. `__Host-` allows no narrower path; the cookies are sealed and
 * short-lived, so being sent to the site's other pages costs a few hundred bytes for 5 minutes.
 */

/** How long the code may follow the password, and recovery codes wait to be shown. */
export const TWO_FACTOR_COOKIE_SECONDS = 5 * 60;

const PENDING = { name: "twoFactorPending", salt: "acme.two-factor-pending" } as const;
const CODES = { name: "twoFactorCodes", salt: "acme.two-factor-recovery-codes" } as const;

type Kind = typeof PENDING | typeof CODES;

const sealedFields = { iat: z.number(), exp: z.number(), jti: z.string().min(1) };

const pendingSchema = z.object({
  ...sealedFields,
  jwt: z.string().min(1),
  user: cmsUserSchema,
  rememberMe: z.boolean(),
  provider: z.string().min(1).optional(),
  oauthSubject: z.string().min(1).optional(),
  authAt: z.number().optional(),
});

/** A sign-in with a provider (OAuth) rather than the password: what its session carries. */
export interface SignedInVia {
  provider: string;
  oauthSubject: string;
  /** When the provider round trip happened (the OAuth sync's answer), if known. */
  authAt?: number;
}

const codesSchema = z.object({
  ...sealedFields,
  userId: z.string().min(1),
  recoveryCodes: z.array(z.string()).max(50),
});

/** A pending sign-in, opened: the CMS's answer to the password, and the one-use id of the cookie. */
export interface PendingSignIn {
  auth: CmsAuth;
  rememberMe: boolean;
  /** Signed in with a provider; none: with the password. */
  via?: SignedInVia;
  /** The sealed cookie's `jti`: recorded once the step succeeds, so the cookie cannot be used again. */
  id: string;
  expiresAt: Date;
}

async function seal(kind: Kind, secret: string, payload: Record<string, unknown>): Promise<string> {
  return symmetricEncodeJWT(payload, secret, kind.salt, TWO_FACTOR_COOKIE_SECONDS);
}

/** The payload, when the value is one of ours, intact, and issued less than 5 minutes ago. */
async function open<S extends z.ZodType<{ iat: number }>>(
  kind: Kind,
  schema: S,
  secret: string,
  sealed: string | null | undefined,
  nowMs: number,
): Promise<z.output<S> | null> {
  if (!sealed) return null;
  const parsed = schema.safeParse(await symmetricDecodeJWT(sealed, secret, kind.salt));
  if (!parsed.success) return null;
  const ageSeconds = nowMs / 1000 - parsed.data.iat;
  return ageSeconds >= -15 && ageSeconds <= TWO_FACTOR_COOKIE_SECONDS ? parsed.data : null;
}

export function sealPendingSignIn(
  secret: string,
  auth: CmsAuth,
  rememberMe: boolean,
  via?: SignedInVia,
): Promise<string> {
  return seal(PENDING, secret, { jwt: auth.jwt, user: auth.user, rememberMe, ...via });
}

export async function openPendingSignIn(
  secret: string,
  sealed: string | null | undefined,
  nowMs = Date.now(),
): Promise<PendingSignIn | null> {
  const payload = await open(PENDING, pendingSchema, secret, sealed, nowMs);
  if (!payload) return null;
  const { provider, oauthSubject, authAt } = payload;
  return {
    auth: { jwt: payload.jwt, user: payload.user },
    rememberMe: payload.rememberMe,
    ...(provider && oauthSubject
      ? { via: { provider, oauthSubject, ...(authAt === undefined ? {} : { authAt }) } }
      : {}),
    id: payload.jti,
    expiresAt: new Date(payload.exp * 1000),
  };
}

export function sealRecoveryCodes(secret: string, userId: string, recoveryCodes: readonly string[]): Promise<string> {
  return seal(CODES, secret, { userId, recoveryCodes: [...recoveryCodes] });
}

/** The codes to show, when the cookie is intact, young enough, and was made for this user. */
export async function openRecoveryCodes(
  secret: string,
  sealed: string | null | undefined,
  userId: string,
  nowMs = Date.now(),
): Promise<string[] | null> {
  const payload = await open(CODES, codesSchema, secret, sealed, nowMs);
  return payload && payload.userId === userId ? payload.recoveryCodes : null;
}

export type TwoFactorCookie = "pending" | "codes";

const kindOf = (cookie: TwoFactorCookie): Kind => (cookie === "pending" ? PENDING : CODES);

/** The cookie's name: `__Host-` on https (app/lib/cookie-names.ts). */
export function twoFactorCookieName(cookie: TwoFactorCookie, secure: boolean): string {
  return cookieNames(secure)[kindOf(cookie).name];
}

/** The attributes both cookies are set with (better-auth's `ctx.setCookie` takes them as they are). */
export function twoFactorCookieAttributes(secure: boolean) {
  return { path: "/", httpOnly: true, sameSite: "lax", secure } as const satisfies CookieAttributes;
}

/** A Set-Cookie header for the cookie, or (value null) one that expires it. */
export function twoFactorSetCookie(cookie: TwoFactorCookie, value: string | null, secure: boolean): string {
  const maxAge = value === null ? 0 : TWO_FACTOR_COOKIE_SECONDS;
  return setCookieHeader(twoFactorCookieName(cookie, secure), value ?? "", twoFactorCookieAttributes(secure), {
    maxAge,
  });
}

/** The cookie's value in a Cookie request header. */
export function twoFactorCookieOf(
  cookieHeader: string | null,
  cookie: TwoFactorCookie,
  secure: boolean,
): string | null {
  return cookieValueOf(cookieHeader, twoFactorCookieName(cookie, secure)) ?? null;
}

/** The value of the cookie that a list of Set-Cookie headers sets (not expires), or null. */
export function twoFactorCookieSetIn(setCookies: readonly string[], cookie: TwoFactorCookie, secure: boolean) {
  return setCookieIn(setCookies, twoFactorCookieName(cookie, secure))?.value ?? null;
}
