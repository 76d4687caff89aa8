import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { waitForMail } from "../support/cms-mail.ts";
import { startCmsCluster, type CmsCluster } from "../support/cms-cluster.ts";
import { registerCmsUser } from "../support/cms-users.ts";
import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { signInToSite } from "../support/site-requests.ts";
import { TOTP_PERIOD_SECONDS, totpCode } from "../support/totp.ts";
import { until } from "../support/wait.ts";

/**
 * The CMS on more than one machine (docs/decisions/0029-cms-on-postgresql-cluster.md): two real
 * Strapi instances on one real PostgreSQL database (Debian's, a throw-away data directory),
 * started together on the empty database, behind a round-robin balancer; two production site
 * instances sharing a real Redis in front, behind another, which records every revalidation the
 * CMS sends (tests/support/cms-cluster.ts). What one instance guarantees must hold across both:
 * the seed runs once, a write is revalidated once, the failure retry runs once per interval, a
 * second-factor code or an email-change link is accepted once, the account limits and sessions
 * are the database's. Everything is started once for the file (two Strapis on PostgreSQL).
 */

const TIMEOUT = 300_000;
const RETRY_INTERVAL_MS = 2_000;
const PASSWORD = "Cluster-passw0rd!";
const OAUTH_SECRET = "cluster-oauth-sync-secret-0123456789";
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
const PAGES = "/content-manager/collection-types/api::page.page";

type Json = Record<string, any>;

let cluster: CmsCluster;
let adminToken: string;

beforeAll(async () => {
  cluster = await startCmsCluster({
    name: "cms-cluster",
    cms: 2,
    sites: 2,
    cmsEnv: {
      CMS_REVALIDATE_RETRIES: "1",
      CMS_REVALIDATE_BACKOFF_MS: "100",
      CMS_REVALIDATE_TIMEOUT_MS: "3000",
      CMS_REVALIDATE_RETRY_INTERVAL_MS: String(RETRY_INTERVAL_MS),
      CMS_OAUTH_SYNC_SECRET: OAUTH_SECRET,
      // Both schedulers tick every second, at the same wall-clock instant: every due row is raced for.
      CMS_SCHEDULE_CRON: "* * * * * *",
    },
    // The search's polls come from one address (its budget: site-search-limits.test.ts).
    siteEnv: { AUTH_RATE_LIMIT_MAX: "1000", SEARCH_RATE_LIMIT_MAX: "100000" },
  });
  const login = await fetch(`${cluster.cmsBalancer.url}/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: "Admin12345" }),
  });
  expect(login.status, await login.clone().text()).toBe(200);
  adminToken = ((await login.json()) as Json).data.token;
}, TIMEOUT);

afterAll(async () => {
  await cluster?.stop();
}, TIMEOUT);

/** A query on the shared PostgreSQL database (pg from cms/node_modules). */
async function sql(text: string, values: unknown[] = []): Promise<Json[]> {
  const { Client } = createRequire(path.resolve("cms/package.json"))("pg") as {
    Client: new (options: { connectionString: string }) => {
      connect(): Promise<void>;
      query(text: string, values: unknown[]): Promise<{ rows: Json[] }>;
      end(): Promise<void>;
    };
  };
  const client = new Client({ connectionString: cluster.postgres!.url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

const count = async (text: string, values: unknown[] = []) => Number((await sql(text, values))[0]!.count);

/** A JSON call; `base` the balancer or one instance. */
async function call(base: string, method: string, apiPath: string, auth?: string, body?: unknown) {
  const response = await fetch(`${base}${apiPath}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...SITE_SECRET_HEADERS,
      ...(auth ? { authorization: `Bearer ${auth}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

/** An admin API call through the CMS's balancer (each one reaches the next instance); throws unless 2xx. */
async function admin(method: string, apiPath: string, body?: unknown) {
  const answer = await call(cluster.cmsBalancer.url, method, apiPath, adminToken, body);
  if (answer.status >= 300) throw new Error(`${method} ${apiPath}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * Once every CMS instance has settled the revalidations of the writes so far (each one's
 * in-flight count is 0, asked of each instance itself): no more can follow from them.
 */
async function settled() {
  for (const cms of cluster.cms) {
    await until(
      `${cms.url} to settle its revalidations`,
      async () => (await call(cms.url, "GET", "/site-cache/failures", adminToken)).body.meta?.inFlight,
      (inFlight) => inFlight === 0,
    );
  }
}

/** The revalidations the site received since `from` (an index into cluster.revalidations) whose paths include `fullPath`. */
const callsWith = (fullPath: string, from = 0) =>
  cluster.revalidations.slice(from).filter((call) => call.body.next?.fullPaths?.includes(fullPath));

async function createDraft(slug: string, title: string, parent?: string) {
  const body = { title, slug, ...(parent ? { parent: { connect: [{ documentId: parent, locale: "en" }] } } : {}) };
  return (await admin("POST", `${PAGES}?locale=en`, body)).data.documentId as string;
}
const publish = (documentId: string, body: Json = {}) =>
  admin("POST", `${PAGES}/${documentId}/actions/publish?locale=en`, body);

const logOf = (index: number) => readFileSync(cluster.cmsLogs[index]!, "utf8");
const linesIn = (pattern: RegExp) =>
  cluster.cmsLogs.map(
    (_, index) =>
      logOf(index)
        .split("\n")
        .filter((line) => pattern.test(line)).length,
  );

describe("starting together on an empty database", () => {
  it("the two instances seed it exactly once: their starts take turns", async () => {
    // Each kind of seed line in exactly one instance's log, and the same one.
    const seeded = linesIn(/\[seed\] demo content written/);
    expect([...seeded].sort()).toEqual([0, 1]);
    expect(linesIn(/\[seed\] created the development admin user/).sort()).toEqual([0, 1]);
    expect(linesIn(/\[seed\] read-only API token written/).sort()).toEqual([0, 1]);
    // The one that waited for the other's start (it says so after a second) is not the one that seeded.
    const waited = linesIn(/another instance is starting on this database: waiting for it/);
    expect(waited[seeded.indexOf(1)]).toBe(0);
    expect(waited.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(1);

    // What a first start makes, once: the admin, the site's token, the roles, the seed's marker.
    expect(await count("SELECT count(*) FROM admin_users")).toBe(1);
    expect(await count("SELECT count(*) FROM strapi_api_tokens WHERE name = 'frontend-readonly'")).toBe(1);
    expect(await count("SELECT count(*) FROM up_roles")).toBe(2);
    expect(await count("SELECT count(*) FROM admin_roles")).toBe(3);
    expect(await count("SELECT count(*) FROM strapi_core_store_settings WHERE key = 'core_demo-seed_content'")).toBe(1);
    expect(await count("SELECT count(*) FROM i18n_locale")).toBe(2);
    // No page twice: one draft and one published row per page and locale.
    expect(
      await sql(
        `SELECT full_path, locale, published_at IS NULL AS draft, count(*) FROM pages
         GROUP BY 1, 2, 3 HAVING count(*) > 1`,
      ),
    ).toEqual([]);
    expect(await count("SELECT count(*) FROM pages WHERE full_path = '/company' AND locale = 'en'")).toBe(2);

    // Both instances answer, with the one token the site reads with.
    for (const cms of cluster.cms) {
      const pages = await fetch(`${cms.url}/api/pages?filters[fullPath][$eq]=/company`, {
        headers: { authorization: `Bearer ${cms.token}` },
      });
      expect(pages.status).toBe(200);
    }
    expect(new Set(cluster.cms.map((cms) => cms.token)).size).toBe(1);
  });
});

describe("revalidation: one call per write, whichever instance takes it", () => {
  it("an edit and publish: one call, and every site instance shows the new title", async () => {
    await settled();
    const from = cluster.revalidations.length;
    const id = await createDraft("cluster-edit", "Before the edit");
    await publish(id);
    await until(
      "the publish's revalidation",
      () => callsWith("/cluster-edit", from).length,
      (n) => n >= 1,
    );
    await settled();
    expect(callsWith("/cluster-edit", from)).toHaveLength(1);

    await admin("PUT", `${PAGES}/${id}?locale=en`, { title: "After the edit" });
    await publish(id);
    await until(
      "the second publish's revalidation",
      () => callsWith("/cluster-edit", from).length,
      (n) => n >= 2,
    );
    await settled();
    const calls = callsWith("/cluster-edit", from);
    expect(calls).toHaveLength(2);
    expect(cluster.revalidations.slice(from)).toHaveLength(2);
    expect(calls.map((call) => call.status)).toEqual([200, 200]);
    for (const site of cluster.sites) {
      await until(
        `${site.url} to show the new title`,
        async () => (await fetch(`${site.url}/cluster-edit`)).text(),
        (html) => html.includes("After the edit"),
      );
    }
  });

  it("a page move: one call with the old and the new paths", async () => {
    const a = await createDraft("cluster-a", "A");
    const b = await createDraft("cluster-b", "B");
    await publish(a);
    await publish(b);
    const child = await createDraft("moved", "Moved", a);
    await publish(child);
    await settled();
    const from = cluster.revalidations.length;

    await publish(child, { parent: { connect: [{ documentId: b, locale: "en" }] } });
    await until(
      "the move's revalidation",
      () => cluster.revalidations.length - from,
      (n) => n >= 1,
    );
    await settled();
    const calls = cluster.revalidations.slice(from);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body.next?.fullPaths).toEqual(expect.arrayContaining(["/cluster-a/moved", "/cluster-b/moved"]));
  });

  it("a bulk publish: each page revalidated once, none twice", async () => {
    const slugs = ["cluster-bulk-1", "cluster-bulk-2", "cluster-bulk-3"];
    const ids = [];
    for (const slug of slugs) ids.push(await createDraft(slug, slug));
    await settled();
    const from = cluster.revalidations.length;
    await admin("POST", `${PAGES}/actions/bulkPublish?locale=en`, { documentIds: ids });
    const paths = slugs.map((slug) => `/${slug}`);
    await until(
      "every page's revalidation",
      () => paths.filter((fullPath) => callsWith(fullPath, from).length > 0).length,
      (n) => n === paths.length,
    );
    await settled();
    for (const fullPath of paths) expect(callsWith(fullPath, from), fullPath).toHaveLength(1);
    expect(cluster.revalidations.length - from).toBeLessThanOrEqual(paths.length);
  });
});

describe("the site's search on PostgreSQL (docs/search.md): the index in the shared database", () => {
  const results = async (site: { url: string }, query: string) => {
    const html = await (await fetch(`${site.url}${query}`)).text();
    return [...html.matchAll(/<h2><a href="([^"]*)">([\s\S]*?)<\/a><\/h2>/g)].map(([, href, title]) => ({
      href,
      title: title!.replace(/<mark>([^<]*)<\/mark>/g, "[$1]"),
    }));
  };

  it("the seed is found in both locales, stemmed in each language, through either site instance", async () => {
    // The seeded pages and articles, once each, in a tsvector of their language.
    expect(
      await count("SELECT count(*) FROM site_search_entries WHERE uid = 'api::article.article' AND locale = 'en'"),
    ).toBe(await count("SELECT count(*) FROM articles WHERE locale = 'en' AND published_at IS NOT NULL"));
    expect(
      (await sql("SELECT DISTINCT config::text FROM site_search_entries ORDER BY 1")).map((r) => r.config),
    ).toEqual(["english", "german"]);
    for (const site of cluster.sites) {
      // "offices" finds "office": the English configuration stems both to the same word.
      expect(await results(site, "/search?q=berlin+offices")).toContainEqual({
        href: "/blog/berlin-office",
        title: "Acme opens its [Berlin] [office]",
      });
      expect(await results(site, "/de/search?q=kaffeemaschine")).toEqual([
        { href: "/de/blog/buero-berlin", title: "Acme eröffnet ein Büro in Berlin" },
      ]);
    }
  });

  it("a page published on one instance is found through both sites; unpublished, it is gone from both", async () => {
    const id = await createDraft("cluster-search", "Lighthouse keepers");
    await publish(id);
    for (const site of cluster.sites) {
      await until(
        `${site.url} to find the published page`,
        () => results(site, "/search?q=lighthouse+keeper"),
        (found) => found.length === 1,
      );
    }
    expect(await results(cluster.sites[0]!, "/search?q=lighthouse")).toEqual([
      { href: "/cluster-search", title: "[Lighthouse] keepers" },
    ]);
    await admin("POST", `${PAGES}/${id}/actions/unpublish?locale=en`, {});
    for (const site of cluster.sites) {
      await until(
        `${site.url} to find it no more`,
        () => results(site, "/search?q=lighthouse"),
        (found) => found.length === 0,
      );
    }
  });

  it("tsquery syntax in a query is searched as words", async () => {
    for (const input of ["berlin & !office", "berlin:* | (x", "'berlin'", "berlin <-> office"]) {
      const answer = await fetch(`${cluster.sites[0]!.url}/search?q=${encodeURIComponent(input)}`);
      expect(answer.status, input).toBe(200);
    }
  });
});

describe("scheduled publishing: once, however many instances tick", () => {
  it("pages due at the same second are each published once, by one instance, and revalidated once", async () => {
    const slugs = ["cluster-scheduled-1", "cluster-scheduled-2", "cluster-scheduled-3"];
    // Far enough ahead for the three drafts to be saved first; the test waits for the event, not this time.
    const publishAt = new Date(Date.now() + 4_000).toISOString();
    const ids: string[] = [];
    for (const slug of slugs) {
      ids.push((await admin("POST", `${PAGES}?locale=en`, { title: slug, slug, publishAt })).data.documentId as string);
    }
    await settled();
    const from = cluster.revalidations.length;
    const paths = slugs.map((slug) => `/${slug}`);
    await until(
      "every scheduled page's revalidation",
      () => paths.filter((fullPath) => callsWith(fullPath, from).length > 0).length,
      (n) => n === paths.length,
      { timeoutMs: Math.max(0, Date.parse(publishAt) - Date.now()) + 20_000 },
    );
    await settled();
    for (const fullPath of paths) expect(callsWith(fullPath, from), fullPath).toHaveLength(1);
    // One "published" line per page, across both instances' logs: the other instance's claim found nothing to do.
    for (const id of ids) {
      expect(
        linesIn(new RegExp(`\\[schedule\\] published api::page\\.page ${id}`)).reduce((a, b) => a + b, 0),
        id,
      ).toBe(1);
    }
    expect(linesIn(/\[schedule\] scheduled publishing of/)).toEqual([1, 1]);
    for (const site of cluster.sites) {
      await until(
        `${site.url} to show the scheduled page`,
        async () => (await fetch(`${site.url}/cluster-scheduled-1`)).status,
        (status) => status === 200,
      );
    }
  });
});

describe("the failure retry: once per interval, not once per instance", () => {
  it("a failure is retried at most once per interval, by one instance at a time, and delivered once", async () => {
    const id = await createDraft("cluster-retry", "Retry me");
    await settled();
    cluster.failRevalidations = true;
    const from = cluster.revalidations.length;
    try {
      await publish(id);
      // The send and its one retry, then the periodic retries of the recorded failure.
      const periodic = 4;
      await until(
        `${periodic} periodic retries`,
        () => callsWith("/cluster-retry", from).length,
        (n) => n >= 2 + periodic,
        { timeoutMs: (periodic + 3) * RETRY_INTERVAL_MS },
      );
      const times = callsWith("/cluster-retry", from)
        .slice(2)
        .map((call) => call.at);
      const gaps = times.slice(1).map((at, i) => at - times[i]!);
      // Each instance ticks every interval, out of phase with the other: retried by every
      // instance's tick, two of the gaps would add up to one interval (one at most half of it).
      // A pass begins no sooner than 0.9 of an interval after the last (retry-turns.js); 0.7
      // leaves room for the time each send takes to arrive.
      for (const gap of gaps) expect(gap, `gaps ${gaps.join(", ")} ms`).toBeGreaterThanOrEqual(0.7 * RETRY_INTERVAL_MS);
      expect(await count("SELECT count(*) FROM revalidation_failures WHERE state = 'pending'")).toBe(1);

      // An admin's "retry now" on both instances at once: both passes read the failure, one sends
      // it; the other finds it being sent (the site takes 300 ms to refuse). (A periodic pass may
      // have taken it just then, and neither does: another round.)
      let sentByAdmins = 0;
      for (let round = 0; round < 5 && sentByAdmins === 0; round++) {
        const answers = await Promise.all(
          cluster.cms.map((cms) => call(cms.url, "POST", "/site-cache/failures/retry", adminToken, {})),
        );
        const retried = answers.map((answer) => answer.body.data.retried as number);
        sentByAdmins = retried[0]! + retried[1]!;
        expect(sentByAdmins, `retried ${retried.join(" + ")}`).toBeLessThanOrEqual(1);
      }
      expect(sentByAdmins).toBe(1);
    } finally {
      cluster.failRevalidations = false;
    }
    const delivering = cluster.revalidations.length;
    await until(
      "the failure to be delivered and removed",
      () => count("SELECT count(*) FROM revalidation_failures"),
      (left) => left === 0,
      { timeoutMs: 10 * RETRY_INTERVAL_MS },
    );
    await settled();
    const after = callsWith("/cluster-retry", delivering);
    expect(after.map((call) => call.status)).toEqual([200]);
  }, 60_000);
});

describe("accounts across the instances", () => {
  const [instanceA, instanceB] = [() => cluster.cms[0]!.url, () => cluster.cms[1]!.url];
  const balancer = () => cluster.cmsBalancer.url;

  async function signIn(base: string, email: string, password = PASSWORD) {
    return call(base, "POST", "/api/auth/local", undefined, { identifier: email, password });
  }

  /** A new user with two-factor on: its secret, recovery codes and a whole session's JWT. */
  async function enrolled(email: string) {
    await registerCmsUser(balancer(), email, PASSWORD);
    const first = (await signIn(balancer(), email)).body.jwt as string;
    const setup = await call(balancer(), "POST", "/api/account-two-factor/setup", first, { password: PASSWORD });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const secret = setup.body.secret as string;
    const enable = await call(balancer(), "POST", "/api/account-two-factor/enable", first, { code: totpCode(secret) });
    expect(enable.status, JSON.stringify(enable.body)).toBe(200);
    return { secret, recoveryCodes: enable.body.recoveryCodes as string[], jwt: enable.body.jwt as string };
  }

  const verify = (base: string, jwt: string, code: string) =>
    call(base, "POST", "/api/account-two-factor/verify", jwt, { code });

  it("a second-factor code sent to both instances at once is accepted once (TOTP and recovery codes)", async () => {
    const { secret, recoveryCodes, jwt } = await enrolled("replay@example.com");
    const code = totpCode(secret, Date.now() + STEP_MS);
    const totp = await Promise.all([verify(instanceA(), jwt, code), verify(instanceB(), jwt, code)]);
    expect(totp.map((answer) => answer.status).sort(), JSON.stringify(totp.map((a) => a.body))).toEqual([200, 400]);
    expect(totp.find((answer) => answer.status === 400)!.body.error.details.code).toBe("CODE_ALREADY_USED");

    for (const recovery of recoveryCodes.slice(0, 6)) {
      const answers = await Promise.all([verify(instanceA(), jwt, recovery), verify(instanceB(), jwt, recovery)]);
      expect(answers.map((answer) => answer.status).sort(), recovery).toEqual([200, 400]);
    }
    expect((await call(balancer(), "GET", "/api/account-two-factor", jwt)).body.recoveryCodesLeft).toBe(4);
  });

  it("wrong codes at once through both instances: exactly five count, then the account is locked on both", async () => {
    const { secret, jwt } = await enrolled("locked-2fa@example.com");
    const wrong = totpCode(secret, Date.now() + 20 * STEP_MS);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => verify(i % 2 ? instanceB() : instanceA(), jwt, wrong)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
    const [row] = await sql("SELECT two_factor_failures, two_factor_locked_until FROM up_users WHERE email = $1", [
      "locked-2fa@example.com",
    ]);
    expect(row).toMatchObject({ two_factor_failures: 5 });
    expect(row!.two_factor_locked_until).not.toBeNull();
    // The right code is refused on either instance while the lock lasts.
    const right = totpCode(secret, Date.now() + STEP_MS);
    for (const base of [instanceA(), instanceB()]) expect((await verify(base, jwt, right)).status).toBe(429);
  });

  it("the site's per-account password lockout holds across its two instances", async () => {
    const email = "locked-password@example.com";
    await registerCmsUser(balancer(), email, PASSWORD);
    const [one, two] = cluster.sites;
    for (let i = 0; i < 5; i++) {
      expect((await signInToSite((i % 2 ? two : one)!.url, email, "wrong-password")).status).toBe(401);
    }
    for (const site of [one!, two!]) expect((await signInToSite(site.url, email, PASSWORD)).status).toBe(429);
  });

  it("the sign-in timing equaliser works on each instance: an unknown address costs a password check too", async () => {
    const known = "timing@example.com";
    await registerCmsUser(balancer(), known, PASSWORD);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const timed = async (base: string, email: string) => {
      const started = performance.now();
      const answer = await signIn(base, email, "Wrong-passw0rd!");
      expect(answer.status).toBe(400);
      return performance.now() - started;
    };
    for (const base of [instanceA(), instanceB()]) {
      const [knownMs, unknownMs]: [number[], number[]] = [[], []];
      for (let i = 0; i < 5; i++) {
        knownMs.push(await timed(base, known));
        unknownMs.push(await timed(base, `nobody-${i}@example.com`));
      }
      // Without it an unknown address is answered without any bcrypt comparison: a few ms.
      expect(
        median(unknownMs),
        `known ${knownMs.map(Math.round)} unknown ${unknownMs.map(Math.round)}`,
      ).toBeGreaterThan(0.5 * median(knownMs));
    }
  });

  it("an email change asked on one instance is confirmed once, on either, and ends the sessions on both", async () => {
    const email = "moving@example.com";
    const moved = "moved@example.com";
    await registerCmsUser(balancer(), email, PASSWORD);
    const jwt = (await signIn(instanceA(), email)).body.jwt as string;
    const asked = Date.now();
    const ask = await call(instanceA(), "POST", "/api/account-sessions/email-change", jwt, {
      email: moved,
      password: PASSWORD,
    });
    expect(ask.status, JSON.stringify(ask.body)).toBe(200);
    const mail = await waitForMail(path.join(cluster.dir, "mail"), moved, { after: asked });
    const token = new URL(mail.emailChangeLink!).searchParams.get("token");
    const confirms = await Promise.all(
      [instanceA(), instanceB()].map((base) =>
        call(base, "POST", "/api/account-sessions/email-change/confirm", undefined, { token }),
      ),
    );
    expect(confirms.map((answer) => answer.status).sort(), JSON.stringify(confirms.map((a) => a.body))).toEqual([
      200, 400,
    ]);
    for (const base of [instanceA(), instanceB()])
      expect((await call(base, "GET", "/api/users/me", jwt)).status).toBe(401);
    expect((await signIn(balancer(), moved)).status).toBe(200);
    expect((await signIn(balancer(), email)).status).toBe(400);
  });

  it("sign out everywhere on one instance ends the sessions started on both", async () => {
    const email = "everywhere@example.com";
    await registerCmsUser(balancer(), email, PASSWORD);
    const onA = (await signIn(instanceA(), email)).body.jwt as string;
    const onB = (await signIn(instanceB(), email)).body.jwt as string;
    for (const base of [instanceA(), instanceB()]) {
      for (const jwt of [onA, onB]) expect((await call(base, "GET", "/api/users/me", jwt)).status).toBe(200);
    }
    expect((await call(instanceB(), "POST", "/api/auth/logout", onA, { scope: "all" })).status).toBe(200);
    for (const base of [instanceA(), instanceB()]) {
      for (const jwt of [onA, onB]) expect((await call(base, "GET", "/api/users/me", jwt)).status).toBe(401);
    }
  });

  it("two first OAuth sign-ins with one new address at once, one per instance: one user", async () => {
    const email = "oauth-twice@example.com";
    const sync = (base: string, provider: string) =>
      fetch(`${base}/api/oauth-sync`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${OAUTH_SECRET}` },
        body: JSON.stringify({ provider, subject: `${provider}-subject`, email, emailVerified: true }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as Json }));
    const answers = await Promise.all([sync(instanceA(), "github"), sync(instanceB(), "google")]);
    expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([
      200, 201,
    ]);
    expect(await count("SELECT count(*) FROM up_users WHERE lower(email) = $1", [email])).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.user.id)).size).toBe(1);
  });
});
