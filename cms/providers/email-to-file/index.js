"use strict";

const { mkdirSync, renameSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const { randomBytes } = require("node:crypto");

/**
 * Strapi email provider for development and tests: no network. Every message becomes one JSON
 * file `{ to, from, replyTo?, subject, text, html, sentAt }` in `providerOptions.dir`, named
 * `<ISO time>-<sequence>-<random>.json` so that `ls` (and a sort by name) is the send order.
 * The file is written under a temporary name and renamed, so a reader never sees half a message.
 *
 * providerOptions: { dir: string (absolute; created if missing), log?: (line) => void }
 * settings:        { defaultFrom?: string, defaultReplyTo?: string }
 */

let sequence = 0;

const asText = (value) => (Array.isArray(value) ? value.join(", ") : value == null ? "" : String(value));

/** `2024-05-01T10:20:30.123Z` → `2024-05-01T10-20-30-123Z` (file-name safe, still sortable). */
const stamp = (date) => date.toISOString().replace(/[:.]/g, "-");

function fileName(date) {
  sequence = (sequence + 1) % 1_000_000;
  return `${stamp(date)}-${String(sequence).padStart(6, "0")}-${randomBytes(3).toString("hex")}.json`;
}

function defaultLog(line) {
  const log = globalThis.strapi && globalThis.strapi.log;
  if (log && typeof log.info === "function") log.info(line);
  else console.log(line);
}

module.exports = {
  init(providerOptions = {}, settings = {}) {
    const dir = providerOptions.dir;
    if (!dir || typeof dir !== "string") {
      throw new Error("strapi-provider-email-to-file: providerOptions.dir (the mail directory) is required.");
    }
    const log = typeof providerOptions.log === "function" ? providerOptions.log : defaultLog;

    return {
      async send(options = {}) {
        const now = new Date();
        const message = {
          to: asText(options.to),
          from: asText(options.from || settings.defaultFrom),
          ...(options.replyTo || settings.defaultReplyTo
            ? { replyTo: asText(options.replyTo || settings.defaultReplyTo) }
            : {}),
          subject: asText(options.subject),
          text: asText(options.text),
          html: asText(options.html),
          sentAt: now.toISOString(),
        };
        mkdirSync(dir, { recursive: true });
        const file = path.join(dir, fileName(now));
        const partial = path.join(dir, `.${path.basename(file)}.partial`);
        writeFileSync(partial, `${JSON.stringify(message, null, 2)}\n`, { mode: 0o600 });
        renameSync(partial, file);
        log(`[mail] to=${message.to} subject=${JSON.stringify(message.subject).slice(1, -1)} file=${file}`);
        return { file };
      },
    };
  },
};
