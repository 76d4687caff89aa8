"use strict";

/** GET /api/account-settings: what the site must know of the users-permissions settings to word its pages. */
module.exports = ({ strapi }) => ({
  async read(ctx) {
    const advanced = (await strapi.store({ type: "plugin", name: "users-permissions" }).get({ key: "advanced" })) || {};
    ctx.set("Cache-Control", "no-store");
    ctx.body = { emailConfirmation: advanced.email_confirmation === true };
  },
});
