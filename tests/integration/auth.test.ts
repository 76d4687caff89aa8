import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { postAuthForm } from "../support/auth-form.ts";
import { StandInCms } from "../support/stand-in-cms.ts";

// The auth endpoints and session handling of the production build, against a stand-in CMS
// whose answers the tests control (a CMS user blocked, /users/me failing, the CMS down).
// The same flows against the real Strapi, in a browser, are in tests/e2e/auth*.spec.ts.
const cms = new StandInCms(await getPort());
let app: AppHandle;
let limited: AppHandle;
let secure: AppHandle;

beforeAll(async () => {
  await cms.start();
  cms.users.set("ann@example.com", { id: 1, password: "Right-password-1", blocked: false });
  cms.users.set("bob@example.com", { id: 2, password: "Right-password-2", blocked: false });
  cms.users.set("cid@example.com", { id: 3, password: "Right-password-3", blocked: false });
  cms.setPage({ fullPath: "/company", title: "Company" });
  const env = {
    CMS_URL: cms.url,
    CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789",
    CMS_FETCH_TIMEOUT_MS: "1000",
  };
  [app, limited, secure] = await Promise.all([
    startApp({ port: await getPort(), env: { ...env, AUTH_RATE_LIMIT_MAX: "1000" } }),
    startApp({ port: await getPort(), env: { ...env, AUTH_RATE_LIMIT_MAX: "3" } }),
    startApp({ port: await getPort(), env: { ...env, APP_PUBLIC_URL: "https://www.example.com" } }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([app?.stop(), limited?.stop(), secure?.stop()]);
  await cms.stop();
});

function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, ...headers },
    body: JSON.stringify(body),
    redirect: "manual",
  });
}

/** A form post as a browser sends it: the page opened first (its bot-check token), from the site's origin. */
const postForm = postAuthForm;

/** The Cookie header a browser would send back after these Set-Cookie headers. */
function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

async function signIn(email: string, password: string) {
  const response = await postJson(app.url, "/api/auth/sign-in-cms", { email, password });
  expect(response.status).toBe(200);
  return cookieHeader(response);
}

describe("auth endpoints and sessions", () => {
  it("sign-in-cms sets HttpOnly, SameSite=Lax cookies and answers the user without the CMS JWT", async () => {
    const response = await postJson(app.url, "/api/auth/sign-in-cms", {
      email: "ann@example.com",
      password: "Right-password-1",
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      user: {
        id: "1",
        email: "ann@example.com",
        name: "ann@example.com",
        blocked: false,
        provider: "credentials",
        emailVerified: true,
      },
    });
    expect(text).not.toContain("stand-in-jwt");
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith("better-auth.session_token="))).toBe(true);
    for (const cookie of cookies) expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
  });

  it.each([
    [{ email: "ann@example.com", password: "wrong" }, 401, "INVALID_CREDENTIALS", "Wrong email or password."],
    [{ email: "not-an-email", password: "x" }, 400, "INVALID_INPUT", "Please correct the highlighted fields."],
    [{ email: 42 }, 400, "INVALID_INPUT", "Please correct the highlighted fields."],
  ])("sign-in-cms answers %j with %i", async (body, status, code, message) => {
    const response = await postJson(app.url, "/api/auth/sign-in-cms", body);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ code, message });
  });

  it("auth pages and their data tell browsers, proxies and CDNs to store nothing; site pages do not", async () => {
    const cookie = await signIn("cid@example.com", "Right-password-3");
    const answers: Array<[string, Record<string, string>, number]> = [
      ["/sign-in", {}, 200],
      ["/register", {}, 200],
      ["/reset-password?code=abc", {}, 200],
      ["/account", {}, 302],
      ["/account", { cookie }, 200],
      ["/account.data", { cookie }, 200],
      ["/sign-in.data", {}, 200],
    ];
    for (const [path, headers, status] of answers) {
      const response = await fetch(`${app.url}${path}`, { headers, redirect: "manual" });
      expect(response.status, path).toBe(status);
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
      expect(response.headers.get("cdn-cache-control"), path).toBe("no-store");
      expect(response.headers.get("surrogate-control"), path).toBe("no-store");
      await response.body?.cancel();
    }
    const page = await fetch(`${app.url}/company`);
    expect(page.headers.get("cache-control")).not.toMatch(/no-store/);
  });

  it("register-cms answers a taken email as it answers a new one: 200, one message, no session", async () => {
    const register = (email: string) =>
      postJson(app.url, "/api/auth/register-cms", {
        email,
        password: "Another-pass-1",
        passwordConfirmation: "Another-pass-1",
      });
    const [taken, fresh] = await Promise.all([register("ann@example.com"), register("new-in-auth-test@example.com")]);
    expect(taken.status).toBe(200);
    expect(fresh.status).toBe(200);
    const body = await taken.text();
    expect(body).toBe(await fresh.text());
    expect(body).not.toMatch(/already exists/);
    expect(taken.headers.getSetCookie()).toEqual([]);
    expect(fresh.headers.getSetCookie()).toEqual([]);
    expect(cms.users.get("ann@example.com")?.password).toBe("Right-password-1");
    expect(cms.users.has("new-in-auth-test@example.com")).toBe(true);
  });

  it("get-session answers the public user, and never the JWT or the session token", async () => {
    const cookie = await signIn("bob@example.com", "Right-password-2");
    const response = await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } });
    const text = await response.text();
    expect(JSON.parse(text).user.email).toBe("bob@example.com");
    expect(text).not.toContain("stand-in-jwt");
    expect(text).not.toContain(/better-auth\.session_token=([^.;]+)/.exec(cookie)?.[1] ?? "no token");
  });

  it("several session reads in one request make one CMS call", async () => {
    const cookie = await signIn("ann@example.com", "Right-password-1");
    const before = cms.requests.filter((path) => path === "/api/users/me").length;
    const response = await fetch(`${app.url}/account`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(cms.requests.filter((path) => path === "/api/users/me").length - before).toBe(1);
  });

  it("a CMS hiccup (5xx on /users/me) keeps the session, and is logged", async () => {
    const cookie = await signIn("ann@example.com", "Right-password-1");
    cms.meStatus = 500;
    try {
      const response = await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } });
      expect((await response.json())?.user?.email).toBe("ann@example.com");
      expect(response.headers.getSetCookie().join()).not.toContain("Max-Age=0");
    } finally {
      cms.meStatus = null;
    }
    expect(app.output()).toContain("[auth] could not re-validate a session with the CMS; keeping it");
  });

  it("a 401 from the CMS (user blocked) clears the session and expires its cookies", async () => {
    const cookie = await signIn("cid@example.com", "Right-password-3");
    cms.users.get("cid@example.com")!.blocked = true;
    const response = await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } });
    expect(await response.json()).toBeNull();
    expect(response.headers.getSetCookie().join()).toMatch(/better-auth\.session_token=; Max-Age=0/);

    const page = await fetch(`${app.url}/account`, { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/sign-in?redirectTo=%2Faccount");
    expect(page.headers.getSetCookie().join()).toMatch(/Max-Age=0/);
  });

  it("a 200 from /users/me that says blocked: true signs out as a 401 does", async () => {
    cms.users.set("eve@example.com", { id: 41, password: "Right-password-5", blocked: false });
    const cookie = await signIn("eve@example.com", "Right-password-5");
    cms.blockedMeIs200 = true;
    try {
      cms.users.get("eve@example.com")!.blocked = true;
      const response = await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } });
      expect(await response.json()).toBeNull();
      expect(response.headers.getSetCookie().join()).toMatch(/better-auth\.session_token=; Max-Age=0/);
    } finally {
      cms.blockedMeIs200 = false;
    }
  });

  it("sign out everywhere while the CMS cannot confirm: 503 with a message, and nothing is ended", async () => {
    const cookie = await signIn("ann@example.com", "Right-password-1");
    cms.meStatus = 500;
    try {
      const json = await postJson(app.url, "/api/auth/sign-out-everywhere-cms", {}, { cookie });
      expect(json.status).toBe(503);
      expect((await json.json()).code).toBe("CMS_UNAVAILABLE");
      const form = await postForm(app.url, "/account", { intent: "sign-out-everywhere" }, { cookie });
      expect(form.status).toBe(503);
      expect(await form.text()).toContain("Accounts are unavailable right now.");
    } finally {
      cms.meStatus = null;
    }
    const session = await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } });
    expect((await session.json())?.user?.email).toBe("ann@example.com");
  });

  it("the CMS proxy attaches the session's JWT for allowlisted paths only", async () => {
    const cookie = await signIn("bob@example.com", "Right-password-2");
    const me = await fetch(`${app.url}/api/cms-proxy/users/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe("bob@example.com");
    expect(me.headers.get("cache-control")).toBe("private, no-store");
    expect((await fetch(`${app.url}/api/cms-proxy/users/me`)).status).toBe(401);
    // (fetch resolves the encoded dots itself: the second asks for /api/cms-proxy/users too.)
    for (const path of ["users", "users/%2e%2e/users"]) {
      const response = await fetch(`${app.url}/api/cms-proxy/${path}`, { headers: { cookie } });
      expect(response.status, path).toBe(404);
    }
    // An encoded slash has no canonical form: refused before any route (400).
    for (const path of ["users/me/..%2F..%2Fusers", "users%2Fme", "..%2Fadmin/users"]) {
      const response = await fetch(`${app.url}/api/cms-proxy/${path}`, { headers: { cookie } });
      expect(response.status, path).toBe(400);
    }
  });

  it("a signed-in visitor gets the shared signed-in variant: nobody's data, never shown to anonymous", async () => {
    const cookie = await signIn("bob@example.com", "Right-password-2");
    await fetch(`${app.url}/company`, { headers: { cookie } });
    const signedIn = await fetch(`${app.url}/company`, { headers: { cookie } });
    expect(signedIn.headers.get("x-cache")).toBe("HIT");
    expect(signedIn.headers.get("cdn-cache-control")).toBe("no-store");
    const signedInHtml = await signedIn.text();
    expect(signedInHtml).toContain('action="/sign-out"');
    await fetch(`${app.url}/company`);
    const anonymous = await fetch(`${app.url}/company`);
    expect(anonymous.headers.get("x-cache")).toBe("HIT");
    const anonymousHtml = await anonymous.text();
    expect(anonymousHtml).not.toContain('action="/sign-out"');
    for (const html of [signedInHtml, anonymousHtml]) {
      expect(html).not.toContain("bob@example.com");
      expect(html).not.toContain("stand-in-jwt");
    }
  });

  it("a session cookie replayed after sign-out is refused", async () => {
    const cookie = await signIn("bob@example.com", "Right-password-2");
    expect((await (await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } })).json())?.user?.email).toBe(
      "bob@example.com",
    );
    const signOut = await postForm(app.url, "/sign-out", {}, { cookie });
    expect(signOut.status).toBe(303);
    // The browser dropped its cookies; a copy of them is sent again.
    expect(await (await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } })).json()).toBeNull();
    const account = await fetch(`${app.url}/account`, { headers: { cookie }, redirect: "manual" });
    expect(account.status).toBe(302);
  });

  it("a copy of a signed-out session cookie cannot change the password; a live session can", async () => {
    cms.users.set("dee@example.com", { id: 40, password: "Right-password-4", blocked: false });
    const changePassword = (cookie: string, currentPassword: string, password: string) =>
      postJson(
        app.url,
        "/api/auth/update-password-cms",
        { currentPassword, password, passwordConfirmation: password },
        { cookie },
      );
    const changeCalls = () => cms.requests.filter((path) => path === "/api/auth/change-password").length;

    const copied = await signIn("dee@example.com", "Right-password-4");
    expect((await postForm(app.url, "/sign-out", {}, { cookie: copied })).status).toBe(303);
    // The copy still decrypts and its CMS JWT is still valid: only the revocation list knows.
    const before = changeCalls();
    const refused = await changePassword(copied, "Right-password-4", "Attacker-pass-4");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "UNAUTHORIZED", message: "Please sign in first." });
    expect(refused.headers.getSetCookie().join()).toMatch(/better-auth\.session_token=; Max-Age=0/);
    expect(changeCalls()).toBe(before);
    expect(cms.users.get("dee@example.com")?.password).toBe("Right-password-4");

    const live = await signIn("dee@example.com", "Right-password-4");
    const wrong = await changePassword(live, "Not-the-password-4", "New-password-4");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      code: "WRONG_CURRENT_PASSWORD",
      fieldErrors: { currentPassword: "This is not your current password." },
    });
    const changed = await changePassword(live, "Right-password-4", "New-password-4");
    expect(changed.status).toBe(200);
    expect((await changed.json()).user.email).toBe("dee@example.com");
    expect(cms.users.get("dee@example.com")?.password).toBe("New-password-4");
  });

  it("signing in with a provider that is not configured is a 400 with a message, not a 500", async () => {
    const response = await postForm(app.url, "/sign-in", { intent: "oauth", provider: "no-such-provider" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This sign-in provider is not available here.");
  });

  it("a JSON post from another origin is refused", async () => {
    const response = await postJson(
      app.url,
      "/api/auth/sign-in-cms",
      { email: "ann@example.com", password: "Right-password-1" },
      {
        origin: "https://evil.example",
      },
    );
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("rate limits forms and endpoints per client: 429 with a message after the limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await postForm(limited.url, "/sign-in", { email: "ann@example.com", password: "wrong" })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await postForm(limited.url, "/sign-in", { email: "ann@example.com", password: "Right-password-1" });
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toMatch(/Too many attempts\. Please wait \d+ seconds/);

    // The JSON endpoint behind the form spends the same budget: still refused.
    const json = await postJson(limited.url, "/api/auth/sign-in-cms", { email: "ann@example.com", password: "wrong" });
    expect(json.status).toBe(429);
  });

  it("behind HTTPS the cookies are __Host- cookies: Secure, Path=/, no Domain", async () => {
    const response = await postJson(
      secure.url,
      "/api/auth/sign-in-cms",
      { email: "ann@example.com", password: "Right-password-1" },
      { origin: "https://www.example.com" },
    );
    expect(response.status).toBe(200);
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith("__Host-better-auth.session_token="))).toBe(true);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/^__Host-/);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).toMatch(/; Secure(;|$)/);
      expect(cookie).not.toMatch(/; Domain=/i);
    }
  });

  it("with the CMS down, a signed-in visitor stays signed in and the forms say the CMS is unavailable", async () => {
    const cookie = await signIn("ann@example.com", "Right-password-1");
    await cms.stop();
    try {
      const account = await fetch(`${app.url}/account`, { headers: { cookie } });
      expect(account.status).toBe(200);
      expect(await account.text()).toContain("ann@example.com");
      const form = await postForm(app.url, "/sign-in", { email: "ann@example.com", password: "Right-password-1" });
      expect(form.status).toBe(503);
      expect(await form.text()).toContain("Accounts are unavailable right now. Please try again in a moment.");
    } finally {
      await cms.start();
    }
  });
});
