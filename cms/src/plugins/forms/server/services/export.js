"use strict";

const UID = "plugin::forms.submission";

/**
 * `strapi.plugin("forms").service("export")`: the submissions as CSV (RFC 4180, one column per
 * field name seen), newest first, at most maxExportRows. A value that a spreadsheet would run as
 * a formula (`=`, `+`, `-`, `@`, tab, CR first) is prefixed with `'` (OWASP's CSV injection advice):
 * visitors typed these cells.
 */
module.exports = ({ strapi }) => ({
  async csv({ form } = {}) {
    const { maxExportRows } = strapi.config.get("plugin::forms");
    const rows = await strapi.db.query(UID).findMany({
      where: form ? { form } : {},
      orderBy: { createdAt: "desc" },
      limit: maxExportRows,
    });
    const names = [];
    for (const row of rows) {
      for (const field of Array.isArray(row.fields) ? row.fields : [])
        if (!names.includes(field.name)) names.push(field.name);
    }
    const header = ["submittedAt", "form", "pagePath", "pageLocale", "mailStatus", ...names];
    const lines = rows.map((row) => {
      const byName = new Map((Array.isArray(row.fields) ? row.fields : []).map((field) => [field.name, field.value]));
      const createdAt = row.createdAt instanceof Date ? row.createdAt.toISOString() : String(row.createdAt);
      return [
        createdAt,
        row.form,
        row.pagePath,
        row.pageLocale,
        row.mailStatus,
        ...names.map((name) => byName.get(name) ?? ""),
      ];
    });
    return [header, ...lines].map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n";
  },
});

function csvCell(value) {
  let text = String(value ?? "");
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
