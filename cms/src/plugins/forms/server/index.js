"use strict";

/**
 * The forms plugin's server side (docs/forms.md): the submissions of the site's form sections
 * (`sections.form` on a page). The site checks a post (origin, bot check, rate limit, fields)
 * and hands it to POST /api/form-submissions with its X-Site-Secret; this plugin stores it
 * first, then mails it (services/mail-delivery.js), retrying while the mail provider is down.
 */
module.exports = {
  bootstrap: require("./bootstrap"),
  destroy: require("./destroy"),
  config: require("./config"),
  contentTypes: require("./content-types"),
  controllers: require("./controllers"),
  services: require("./services"),
  routes: require("./routes"),
  policies: require("./policies"),
};
