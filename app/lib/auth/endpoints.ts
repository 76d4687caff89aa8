import { AUTH_PAGES, type AuthPagePath } from "./paths.ts";

/**
 * Which of better-auth's endpoints the site opens under /api/auth, and which rate-limit
 * budget each state-changing one spends. Everything else better-auth ships (update-user,
 * change-email, delete-user, sign-up/email, get-access-token, list-accounts, ...) answers 404:
 * the site does not use it, and get-access-token would hand the provider's access token
 * (kept in the encrypted account cookie) to any script on the site.
 *
 * A form and the JSON endpoint behind it spend the same budget, so a client cannot get twice
 * the attempts by using both. Budgets are keyed on these names, never on a path a client
 * sent, so random paths create no rate-limit state.
 */
export type RateLimitBudget =
  | "sign-in"
  | "register"
  | "forgot-password"
  | "reset-password"
  | "change-password"
  | "oauth"
  | "sign-out"
  // The sign-in's second step (the CMS also limits codes per account).
  | "two-factor"
  // The content forms (a form section on a page: app/lib/forms/), all pages and forms together.
  | "content-form"
  // The site's search (app/lib/search/rate-limit.server.ts): a limiter of its own, with its own max and window.
  | "search";

interface Endpoint {
  method: "GET" | "POST";
  path: RegExp;
  /** POSTs spend a budget; GETs read (get-session) or are the provider's redirect back (callbacks). */
  budget?: RateLimitBudget;
}

/** The largest body an auth form or endpoint reads (a declared larger one is refused unread). */
export const AUTH_BODY_LIMIT = 16 * 1024;

const PROVIDER = "[A-Za-z0-9_-]{1,40}";

export const OPEN_ENDPOINTS: readonly Endpoint[] = [
  { method: "GET", path: /^\/get-session$/ },
  { method: "GET", path: new RegExp(`^/callback/${PROVIDER}$`) },
  { method: "GET", path: new RegExp(`^/oauth2/callback/${PROVIDER}$`) },
  { method: "POST", path: /^\/sign-in-cms$/, budget: "sign-in" },
  { method: "POST", path: /^\/register-cms$/, budget: "register" },
  { method: "POST", path: /^\/forgot-password-cms$/, budget: "forgot-password" },
  { method: "POST", path: /^\/reset-password-cms$/, budget: "reset-password" },
  { method: "POST", path: /^\/update-password-cms$/, budget: "change-password" },
  { method: "POST", path: /^\/change-username-cms$/, budget: "change-password" },
  { method: "POST", path: /^\/delete-account-cms$/, budget: "change-password" },
  { method: "POST", path: /^\/request-email-change-cms$/, budget: "change-password" },
  { method: "POST", path: /^\/confirm-email-change-cms$/, budget: "reset-password" },
  { method: "POST", path: /^\/sync-oauth-cms$/, budget: "oauth" },
  { method: "POST", path: /^\/sign-in\/social$/, budget: "oauth" },
  { method: "POST", path: /^\/sign-in\/oauth2$/, budget: "oauth" },
  { method: "POST", path: /^\/sign-out$/, budget: "sign-out" },
  { method: "POST", path: /^\/sign-out-everywhere-cms$/, budget: "sign-out" },
  // Two-factor authentication (plugins/two-factor.server.ts): the sign-in's second step, and the settings.
  { method: "POST", path: /^\/two-factor-cms$/, budget: "two-factor" },
  { method: "POST", path: /^\/two-factor-(setup|enable|disable|recovery-codes)-cms$/, budget: "change-password" },
];

/** The open endpoint for a method and a path under /api/auth (`/sign-in-cms`), or null (404). */
export function openEndpoint(method: string, path: string): Endpoint | null {
  const verb = method === "HEAD" ? "GET" : method;
  return OPEN_ENDPOINTS.find((endpoint) => endpoint.method === verb && endpoint.path.test(path)) ?? null;
}

/** The budget each auth form spends: the same as its JSON endpoint's. */
export const FORM_BUDGETS: Record<AuthPagePath, RateLimitBudget> = {
  [AUTH_PAGES.signIn]: "sign-in",
  [AUTH_PAGES.register]: "register",
  [AUTH_PAGES.forgotPassword]: "forgot-password",
  [AUTH_PAGES.resetPassword]: "reset-password",
  [AUTH_PAGES.account]: "change-password",
  [AUTH_PAGES.signOut]: "sign-out",
  // Its button tries a token from a mail, as reset does.
  [AUTH_PAGES.confirmEmailChange]: "reset-password",
  // Its two forms try a code from a mail or send a mail to an address anyone can type, as reset does.
  [AUTH_PAGES.confirmEmail]: "reset-password",
  [AUTH_PAGES.twoFactor]: "two-factor",
  [AUTH_PAGES.accountTwoFactor]: "change-password",
};

/**
 * The forms that carry the bot check (a honeypot and a minimum fill time, runAuthForm and
 * form-token.server.ts; docs/decisions/0021-bot-check-on-auth-forms.md): those anyone can send
 * without an account. A post with one of `exceptIntents` is not checked: the sign-in page's
 * provider buttons take no typed input and reach no CMS (they answer with a redirect to the
 * provider), and a person may click one at once.
 */
export const BOT_CHECKED_FORMS: Partial<Record<AuthPagePath, { exceptIntents: readonly string[] }>> = {
  [AUTH_PAGES.signIn]: { exceptIntents: ["oauth"] },
  [AUTH_PAGES.register]: { exceptIntents: [] },
  [AUTH_PAGES.forgotPassword]: { exceptIntents: [] },
};
