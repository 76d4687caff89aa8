"use strict";

const { errors } = require("@strapi/utils");

const { checkValues } = require("./field-rules");

const UID = "plugin::forms.submission";
const PAGE = "api::page.page";

/**
 * `strapi.plugin("forms").service("submissions")`: a submission from the site, stored before
 * anything is mailed (the mail provider may be down: services/mail-delivery.js retries). Where it
 * goes (the form's name, the notification address) comes from the published page's form section
 * that the site names, never from the post.
 */
module.exports = ({ strapi }) => ({
  /**
   * Stores `{ page, locale, section, values }` (the page's documentId, its locale, the form
   * section's component id, the typed values) and starts its mail. Resolves with the stored row's
   * documentId; throws a 400 (ValidationError) for a page or section that is not there or values
   * the section does not take.
   */
  async accept(body) {
    const { page: documentId, locale, section: sectionId, values } = body ?? {};
    if (typeof documentId !== "string" || typeof locale !== "string" || !Number.isInteger(sectionId)) {
      throw new errors.ValidationError("Expected { page: documentId, locale, section: id, values }", {
        code: "BAD_REQUEST",
      });
    }
    const page = await strapi.documents(PAGE).findOne({
      documentId,
      locale,
      status: "published",
      fields: ["fullPath", "title"],
      populate: { sections: { on: { "sections.form": { populate: { fields: true } } } } },
    });
    const section = page?.sections?.find((s) => s.__component === "sections.form" && s.id === sectionId);
    if (!section) throw new errors.ValidationError("No such form on a published page", { code: "NO_FORM" });
    const checked = checkValues(section, values);
    if (!checked.ok)
      throw new errors.ValidationError(`The form refused the values: ${checked.message}`, { code: "INVALID_VALUES" });
    const mailTo = section.notifyEmail?.trim() || null;
    const stored = await strapi.documents(UID).create({
      data: {
        form: section.formName,
        pagePath: page.fullPath,
        pageLocale: locale,
        fields: checked.fields,
        mailTo,
        mailStatus: mailTo ? "pending" : "none",
        mailAttempts: 0,
        nextMailAt: mailTo ? new Date() : null,
      },
    });
    // After the answer: a slow or absent mail server never holds the visitor's post.
    if (mailTo) setImmediate(() => void strapi.plugin("forms").service("mail-delivery").deliver(stored.id));
    return { documentId: stored.documentId, mailStatus: stored.mailStatus };
  },
});
