/** The auth pages. They are personal, so server/app.ts never caches them. */
export const AUTH_PAGES = {
  signIn: "/sign-in",
  register: "/register",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  account: "/account",
  signOut: "/sign-out",
} as const;

export const AUTH_PAGE_PATHS: readonly string[] = Object.values(AUTH_PAGES);

export type AuthPagePath = (typeof AUTH_PAGES)[keyof typeof AUTH_PAGES];
