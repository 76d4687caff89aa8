"use strict";

const { errors } = require("@strapi/utils");

const UID = "plugin::forms.submission";

module.exports = ({ strapi }) => ({
  /** POST /api/form-submissions (the site's server: policies/from-site.js) → 201 `{ data: { documentId, mailStatus } }`. */
  async submit(ctx) {
    const stored = await strapi.plugin("forms").service("submissions").accept(ctx.request.body);
    ctx.status = 201;
    ctx.body = { data: stored };
  },

  /**
   * GET /forms/submissions.csv[?form=<name>] (admin): the export, for an admin whose role may read
   * submissions in the Content Manager (the same grant: src/admin-grants.js); 403 otherwise.
   */
  async exportCsv(ctx) {
    if (!ctx.state.userAbility?.can("plugin::content-manager.explorer.read", UID)) {
      throw new errors.ForbiddenError("Your role may not read form submissions.");
    }
    const form = typeof ctx.query.form === "string" && ctx.query.form !== "" ? ctx.query.form.slice(0, 80) : undefined;
    ctx.set("Content-Type", "text/csv; charset=utf-8");
    ctx.set(
      "Content-Disposition",
      `attachment; filename="form-submissions${form ? `-${form.replace(/[^A-Za-z0-9_-]/g, "")}` : ""}.csv"`,
    );
    ctx.set("Cache-Control", "no-store");
    ctx.body = await strapi.plugin("forms").service("export").csv({ form });
  },
});
