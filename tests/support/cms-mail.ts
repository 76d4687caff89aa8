import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * Reads the email the CMS "sent" in development and tests: with no SMTP_HOST, Strapi's email
 * plugin uses cms/providers/email-to-file, which writes every message as one JSON file
 * `{ to, from, replyTo?, subject, text, html, sentAt }` into CMS_MAIL_DIR, named
 * `<ISO time>-<sequence>-<random>.json` (sorting by name = sending order).
 */

export interface CmsMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** ISO time the CMS wrote the message. */
  sentAt: string;
  /** The message's file. */
  file: string;
  /** The first `http(s)://…/reset-password?code=…` link in the text (or html), if any. */
  resetLink?: string;
  /** The first `http(s)://…/confirm-email?confirmation=…` link (the email-confirmation mail), if any. */
  confirmLink?: string;
  /** The first `http(s)://…/confirm-email-change?token=…` link (the change-of-email mail), if any. */
  emailChangeLink?: string;
}

export interface WaitForMailOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Only messages sent at or after this time (ms since the epoch, e.g. `Date.now()` before the request). */
  after?: number;
}

const RESET_LINK_RE = /https?:\/\/[^\s"'<>]+\/reset-password\?code=[A-Za-z0-9]+/;
const CONFIRM_LINK_RE = /https?:\/\/[^\s"'<>]+\/confirm-email\?confirmation=[A-Za-z0-9]+/;
const EMAIL_CHANGE_LINK_RE = /https?:\/\/[^\s"'<>]+\/confirm-email-change\?token=[0-9a-f]+/;

/** The reset-password link in a message body, if there is one. */
export function extractResetLink(body: string): string | undefined {
  return RESET_LINK_RE.exec(body)?.[0];
}

/** Every message in `dir`, oldest first (an absent directory is empty). */
export async function readMails(dir: string): Promise<CmsMail[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const mails: CmsMail[] = [];
  for (const name of names.filter((n) => n.endsWith(".json") && !n.startsWith(".")).sort()) {
    const file = path.join(dir, name);
    const message = JSON.parse(await readFile(file, "utf8")) as Omit<
      CmsMail,
      "file" | "resetLink" | "confirmLink" | "emailChangeLink"
    >;
    const resetLink = extractResetLink(message.text ?? "") ?? extractResetLink(message.html ?? "");
    const confirmLink = CONFIRM_LINK_RE.exec(`${message.text ?? ""} ${message.html ?? ""}`)?.[0];
    const emailChangeLink = EMAIL_CHANGE_LINK_RE.exec(`${message.text ?? ""} ${message.html ?? ""}`)?.[0];
    mails.push({
      ...message,
      file,
      ...(resetLink ? { resetLink } : {}),
      ...(confirmLink ? { confirmLink } : {}),
      ...(emailChangeLink ? { emailChangeLink } : {}),
    });
  }
  return mails;
}

/**
 * Waits until a message to `to` (case-insensitive; one of several comma-separated recipients
 * counts) sent at or after `opts.after` is in `dir`, and returns the newest such message.
 * Throws after `opts.timeoutMs` (default 10 s), listing what is there.
 */
export async function waitForMail(dir: string, to: string, opts: WaitForMailOptions = {}): Promise<CmsMail> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const after = opts.after ?? 0;
  const wanted = to.trim().toLowerCase();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await readMails(dir);
    const matching = all.filter(
      (mail) =>
        Date.parse(mail.sentAt) >= after &&
        mail.to
          .split(",")
          .map((address) => address.trim().toLowerCase())
          .some((address) => address === wanted || address.endsWith(`<${wanted}>`)),
    );
    if (matching.length > 0) return matching[matching.length - 1]!;
    if (Date.now() > deadline) {
      const seen = all.map((mail) => `${mail.sentAt} to=${mail.to} subject=${mail.subject}`).join("\n  ") || "(none)";
      throw new Error(
        `waitForMail: no message to ${to}${after ? ` sent after ${new Date(after).toISOString()}` : ""} in ${dir} ` +
          `within ${timeoutMs} ms. Messages there:\n  ${seen}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
