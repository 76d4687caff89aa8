"use strict";

const UID = "plugin::forms.submission";
/** How long a claimed row is left to the instance that claimed it before another may try it. */
const CLAIM_MS = 5 * 60_000;
/** The longest wait between two attempts. */
const MAX_WAIT_SECONDS = 60 * 60;
/** Rows tried per round: a long outage's backlog drains over rounds, never in one burst. */
const BATCH = 20;

/**
 * `strapi.plugin("forms").service("mail-delivery")`: mails each stored submission to its form's
 * address through Strapi's email plugin (the CMS's mail provider), and tries again while that
 * fails: after retryBaseSeconds, doubling up to an hour, at most maxMailAttempts times; then the
 * row is `failed` and stays stored (docs/decisions/0037-forms.md). A row is claimed before it is
 * sent (a conditional update on its attempt count and due time), so with several CMS instances
 * one mail goes out per submission, whichever instance's round finds it first.
 */
module.exports = ({ strapi }) => {
  let timer = null;
  let running = null;
  const config = () => strapi.config.get("plugin::forms");
  const rows = () => strapi.db.query(UID);

  async function claim(row, now) {
    const { count } = await rows().updateMany({
      where: { id: row.id, mailStatus: "pending", mailAttempts: row.mailAttempts, nextMailAt: row.nextMailAt },
      data: { nextMailAt: new Date(now + CLAIM_MS) },
    });
    return count === 1;
  }

  async function deliver(id) {
    const now = Date.now();
    const row = await rows().findOne({ where: { id } });
    if (!row || row.mailStatus !== "pending" || !row.mailTo) return "skipped";
    if (row.nextMailAt && new Date(row.nextMailAt).getTime() > now) return "not-due";
    if (!(await claim(row, now))) return "claimed-elsewhere";
    try {
      await strapi.plugin("email").service("email").send(composeMail(row));
      await rows().update({
        where: { id },
        data: { mailStatus: "sent", mailAttempts: row.mailAttempts + 1, nextMailAt: null, mailError: null },
      });
      return "sent";
    } catch (error) {
      const attempts = row.mailAttempts + 1;
      const { maxMailAttempts, retryBaseSeconds } = config();
      const gaveUp = attempts >= maxMailAttempts;
      const wait = Math.min(MAX_WAIT_SECONDS, retryBaseSeconds * 2 ** (attempts - 1));
      await rows().update({
        where: { id },
        data: {
          mailStatus: gaveUp ? "failed" : "pending",
          mailAttempts: attempts,
          nextMailAt: gaveUp ? null : new Date(Date.now() + wait * 1000),
          mailError: String(error?.message ?? error).slice(0, 500),
        },
      });
      strapi.log.warn(
        `[forms] the mail of submission ${id} failed (attempt ${attempts} of ${maxMailAttempts}` +
          `${gaveUp ? ", no more" : `, next in ${wait} s`}): ${String(error?.message ?? error).slice(0, 200)}`,
      );
      return gaveUp ? "failed" : "retry";
    }
  }

  /** One round: the due rows, oldest first, at most BATCH of them. */
  async function retryDue() {
    const due = await rows().findMany({
      where: { mailStatus: "pending", nextMailAt: { $lte: new Date() } },
      orderBy: { nextMailAt: "asc" },
      limit: BATCH,
      select: ["id"],
    });
    for (const { id } of due) await deliver(id);
    return due.length;
  }

  return {
    deliver: (id) =>
      deliver(id).catch((error) => {
        strapi.log.error(`[forms] delivering submission ${id}: ${error?.stack ?? error}`);
        return "error";
      }),
    retryDue,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        if (running) return;
        running = retryDue()
          .catch((error) => strapi.log.error(`[forms] mail retry round: ${error?.stack ?? error}`))
          .finally(() => (running = null));
      }, config().retryIntervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
};

/** The mail to the form's address: the fields as `label: value` lines, Reply-To the sender's address. */
function composeMail(row) {
  const oneLine = (value) =>
    String(value ?? "")
      .replace(/[\r\n]+/g, " ")
      .slice(0, 200);
  const fields = Array.isArray(row.fields) ? row.fields : [];
  const lines = fields.map((field) => `${oneLine(field.label || field.name)}:\n${String(field.value ?? "")}\n`);
  const replyTo = fields.find((field) => field.replyTo)?.value;
  return {
    to: row.mailTo,
    ...(replyTo ? { replyTo } : {}),
    subject: `New "${oneLine(row.form)}" form submission (${oneLine(row.pagePath)})`,
    text: [
      `Sent through the form "${oneLine(row.form)}" on ${oneLine(row.pagePath)} (${oneLine(row.pageLocale)}).`,
      "",
      ...lines,
    ].join("\n"),
  };
}
