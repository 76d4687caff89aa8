/**
 * A burst of content-form posts (docs/forms.md) through the built site and a real Strapi whose
 * mail provider is an SMTP server this script stops and starts. Two phases:
 *
 * 1. Provider up: BENCH_CLIENTS clients (default 50, each its own address through
 *    X-Forwarded-For) post the /contact form BENCH_POSTS times each (default 15), all at once.
 *    What is answered (200 stored, 429 refused by the rate limit), the answer times, what the CMS
 *    stored and what was mailed.
 * 2. Provider down: BENCH_DOWN_CLIENTS clients (default 20) post 10 times each (within the limit)
 *    while the SMTP server is stopped; then it is started again. Every post must be stored and,
 *    once the provider is back, mailed exactly once: the time until the last mail is out.
 *
 * `npx tsx bench/forms.ts` (BENCH_SITE_BUILT=1 skips `npm run build`). Prints one JSON line.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../tests/support/free-port.ts";

import { superAdminToken } from "../tests/support/admin-users.ts";
import { startApp, type AppHandle } from "../tests/support/app-server.ts";
import { startCms } from "../tests/support/cms-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "../tests/support/site-secret.ts";
import { mailText, startFakeSmtp, type FakeSmtp } from "../tests/support/smtp-server.ts";
import { buildSite } from "./support.ts";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const POSTS = Number(process.env.BENCH_POSTS ?? 15);
const DOWN_CLIENTS = Number(process.env.BENCH_DOWN_CLIENTS ?? 20);
const DOWN_POSTS = 10;
const RATE_LIMIT = 10;
const SUBMISSIONS = "/content-manager/collection-types/plugin::forms.submission";

interface Form {
  section: string;
  token: string;
}

async function contactForm(base: string): Promise<Form> {
  const html = await (await fetch(`${base}/contact`)).text();
  const match = /name="formSection" value="(\d+)"\/><input type="hidden" name="formToken" value="([^"]+)"/.exec(html);
  if (!match) throw new Error("no contact form on /contact");
  return { section: match[1]!, token: match[2]! };
}

/** One client's posts, one after the other; each answer's status and time. */
async function client(base: string, form: Form, address: string, marker: string, posts: number) {
  const answers: Array<{ status: number; ms: number }> = [];
  for (let i = 0; i < posts; i++) {
    const started = performance.now();
    const response = await fetch(`${base}/contact`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base, "x-forwarded-for": address },
      body: new URLSearchParams({
        formSection: form.section,
        formToken: form.token,
        remarks: "",
        field_name: "Bench Visitor",
        field_email: `${marker}-${address.replaceAll(".", "-")}-${i}@example.com`,
        field_message: `Post ${i} of ${address}`,
        consent: "yes",
      }),
      redirect: "manual",
    });
    await response.arrayBuffer();
    answers.push({ status: response.status, ms: performance.now() - started });
  }
  return answers;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
};

/** The stored rows whose fields hold `<marker>-` (the export: every row, one line each). */
async function storedWith(cmsUrl: string, token: string, marker: string): Promise<number> {
  const csv = await (
    await fetch(`${cmsUrl}/forms/submissions.csv`, { headers: { authorization: `Bearer ${token}` } })
  ).text();
  return csv.split("\r\n").filter((line) => line.includes(`,${marker}-`)).length;
}

async function count(cmsUrl: string, token: string, filter = ""): Promise<number> {
  const response = await fetch(`${cmsUrl}${SUBMISSIONS}?pageSize=1${filter}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { pagination: { total: number } }).pagination.total;
}

async function burst(base: string, form: Form, marker: string, clients: number, posts: number, subnet: number) {
  const started = performance.now();
  const all = await Promise.all(
    Array.from({ length: clients }, (_, i) =>
      client(base, form, `10.${subnet}.${Math.floor(i / 250)}.${(i % 250) + 1}`, marker, posts),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const answers = all.flat();
  const by = (status: number) => answers.filter((a) => a.status === status);
  return {
    posts: answers.length,
    stored200: by(200).length,
    refused429: by(429).length,
    other: answers.filter((a) => a.status !== 200 && a.status !== 429).length,
    statuses: Object.fromEntries(
      [...new Set(answers.map((a) => a.status))].map((status) => [status, by(status).length]),
    ),
    seconds: Math.round(seconds * 10) / 10,
    postsPerSecond: Math.round(answers.length / seconds),
    p50ms: percentile(
      by(200).map((a) => a.ms),
      50,
    ),
    p95ms: percentile(
      by(200).map((a) => a.ms),
      95,
    ),
  };
}

const mailsWith = (smtp: FakeSmtp, marker: string) =>
  smtp.messages.filter((m) => mailText(m).includes(`${marker}-`)).length;

async function waitFor(what: string, read: () => number | Promise<number>, target: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value >= target) return value;
    if (Date.now() > deadline) throw new Error(`${what}: ${value} of ${target} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main() {
  if (process.env.BENCH_SITE_BUILT !== "1") buildSite();
  const dir = mkdtempSync(path.join(tmpdir(), "bench-forms-"));
  const [smtpPort, cmsPort, appPort] = [await getPort(), await getPort(), await getPort()];
  let smtp = await startFakeSmtp(smtpPort);
  let app: AppHandle | undefined;
  const cms = await startCms({
    port: cmsPort,
    dbFile: path.join(dir, "cms.db"),
    fresh: true,
    env: {
      CLIENT_URL: `http://127.0.0.1:${appPort}`,
      CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtpPort),
      CMS_FORM_MAIL_RETRY_MS: "500",
      CMS_FORM_MAIL_RETRY_BASE_SECONDS: "1",
    },
  });
  try {
    app = await startApp({
      port: appPort,
      env: {
        CMS_URL: cms.url,
        CMS_REST_READONLY_API_KEY: cms.token,
        CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
        TRUST_PROXY: "loopback",
        AUTH_RATE_LIMIT_MAX: String(RATE_LIMIT),
        AUTH_RATE_LIMIT_WINDOW_SECONDS: "600",
      },
    });
    const admin = await superAdminToken(cms.url);
    const form = await contactForm(app.url);

    // Phase 1: the provider up.
    const up = await burst(app.url, form, "up", CLIENTS, POSTS, 1);
    const storedUp = await storedWith(cms.url, admin, "up");
    const mailedUp = await waitFor("mails (provider up)", () => mailsWith(smtp, "up"), storedUp, 120_000);

    // Phase 2: the provider down during the burst, back after it.
    await smtp.stop();
    const down = await burst(app.url, form, "down", DOWN_CLIENTS, DOWN_POSTS, 2);
    const storedDown = await storedWith(cms.url, admin, "down");
    const pendingDown = await count(cms.url, admin, "&filters[mailStatus][$eq]=pending");
    const backAt = performance.now();
    smtp = await startFakeSmtp(smtpPort);
    const mailedDown = await waitFor("mails (provider back)", () => mailsWith(smtp, "down"), storedDown, 300_000);
    const drainedSeconds = Math.round((performance.now() - backAt) / 100) / 10;
    // Rows stored after their post's answer (a 503 when the site's CMS call timed out) count too.
    const stored = await count(cms.url, admin);
    const sent = await waitFor(
      "rows marked sent",
      () => count(cms.url, admin, "&filters[mailStatus][$eq]=sent"),
      stored,
      120_000,
    );
    const duplicates = smtp.messages.length - new Set(smtp.messages.map((m) => mailText(m))).size;

    console.log(
      JSON.stringify({
        rateLimit: `${RATE_LIMIT} posts per client per window`,
        providerUp: { clients: CLIENTS, postsPerClient: POSTS, ...up, storedInCms: storedUp, mailed: mailedUp },
        providerDown: {
          clients: DOWN_CLIENTS,
          postsPerClient: DOWN_POSTS,
          ...down,
          storedInCms: storedDown,
          pendingWhileDown: pendingDown,
          mailedAfterBack: mailedDown,
          secondsFromBackToLastMail: drainedSeconds,
          duplicateMails: duplicates,
        },
        rowsStored: stored,
        rowsMarkedSent: sent,
      }),
    );
  } finally {
    await app?.stop();
    await cms.stop();
    await smtp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
