const { registerPublishDate } = require("./articles/publish-date");
const { registerAltTextRule } = require("./images/alt-text-rule");
const { grantAddedFields } = require("./grant-added-fields");
const { grantDefaultRoleLocalesOnce, watchDefaultRoleCreation } = require("./grant-default-locales");
const { guardPreviewUrlRoute } = require("./preview/read-permission");
const { removeUndecidedGrants } = require("./remove-undecided-grants");
const { alignReadOnlyToken } = require("./read-only-token");
const { seedDemoSite, shouldSeed } = require("./seed");
const { addSectionComponentsToPages } = require("./sections/page-sections");
const { convertNavbarLinksAfterSync, revalidateConvertedNavbars } = require("./upgrades/navbar-nav-links");

/**
 * The application's own lifecycle. The site cache (revalidation, page hierarchy, CDN purge, its
 * admin page and buttons) is the package @cms-site/strapi-plugin-site-cache (packages/), the
 * accounts (second factor, email and username changes, sessions, the OAuth sync, the auth
 * settings) the local plugin src/plugins/accounts/, wired by Strapi itself (config/plugins.js):
 * their register() and bootstrap() run before this. The site cache starts itself: its revalidation
 * and scheduler once Strapi serves, after this bootstrap (so the seed's writes below are not
 * revalidated, and what the scheduler publishes is), and it grants the Editor its admin actions.
 */
module.exports = {
  register({ strapi }) {
    // Idle keep-alive connections are closed by their clients, never by Strapi under them: Node's
    // 5 s default is about the 4-5 s its clients (undici, the site's fetch, browsers, proxies)
    // keep one, and a request sent on a socket the server is closing is reset (ECONNRESET), not
    // retried, for a POST. Above a load balancer's usual 60 s, as the site's own server does.
    const { httpServer } = strapi.server;
    httpServer.keepAliveTimeout = 65_000;
    httpServer.headersTimeout = 66_000;
    // An article's publishDate: set on its first publish, kept by later ones (src/articles/publish-date.js);
    // a scheduled publish's is the time it was scheduled for, not the minute the scheduler came.
    registerPublishDate(strapi, {
      now: () => strapi.plugin("site-cache").service("schedule").scheduledTime() ?? new Date(),
    });
    // A page's sections are every component of the `sections` category, its schema's list or not
    // (src/sections/page-sections.js): before the schema sync and the Content Manager read them.
    addSectionComponentsToPages(strapi);
    // Publishing needs alternative text for every informative image (src/images/alt-text-rule.js).
    registerAltTextRule(strapi);
    // Whether this start's admin bootstrap creates the Editor and Author roles (a new database).
    watchDefaultRoleCreation(strapi);
    // The admin's preview-URL route signs links only for documents the admin may read (src/preview/read-permission.js).
    guardPreviewUrlRoute(strapi);
    // An older database's navbar entries (shared.link) become shared.nav-link after the schema sync
    // (src/upgrades/navbar-nav-links.js).
    convertNavbarLinksAfterSync(strapi);
  },
  async bootstrap({ strapi }) {
    // Who may do what on each content type is src/admin-grants.js; grants a database holds beyond it
    // on the types it reserves (the plugins' own, the site's accounts) go, on every start.
    await removeUndecidedGrants(strapi);
    // The Editor's read and delete on form submissions, once (a database made before the forms plugin).
    await strapi.plugin("forms").service("permissions").grantEditorOnce();
    // The users-permissions settings that are configuration, and the Authenticated role's grant of
    // the account actions and Strapi's logout, on every start: here, after users-permissions'
    // bootstrap, which creates the roles and settings of a fresh database (a plugin's bootstrap may
    // run before it: src/plugins/accounts/server/bootstrap.js).
    const accounts = strapi.plugin("accounts");
    await accounts.service("auth-settings").apply();
    await accounts.service("permissions").grantAuthenticated();
    // Demo content once into an empty database, the read-only token on every start; never throws
    // (a failing step is logged and Strapi starts): cms/src/seed/index.js.
    if (shouldSeed()) await seedDemoSite(strapi);
    // A new database's Editor and Author: src/admin-grants.js's grants on the localized types, in
    // every locale (Strapi's first start leaves them none): after the seed, which adds its locales.
    await grantDefaultRoleLocalesOnce(strapi);
    // The Editor's and Author's field lists gain the fields an upgrade added to their types (an
    // admin's removal sticks): src/grant-added-fields.js.
    await grantAddedFields(strapi);
    // The front end's read-only token's permissions follow from the content types' declarations, in
    // every environment (production: an operator created the token once; none is logged).
    await alignReadOnlyToken(strapi);
    // An upgrade's converted navbar (src/upgrades/navbar-nav-links.js): the pages the site cached with the old one.
    revalidateConvertedNavbars(strapi);
  },
};
