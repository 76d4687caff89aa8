"use strict";

/**
 * - POST /api/form-submissions (content API, `auth: false`, prefix dropped): the site's server
 *   only, checked by the policy from-site (X-Site-Secret); no other content-API route: nobody
 *   reads submissions through the public API or any API token.
 * - GET /forms/submissions.csv (admin): the export, for roles that may read submissions.
 */
module.exports = {
  "content-api": {
    type: "content-api",
    routes: [
      {
        method: "POST",
        path: "/form-submissions",
        handler: "submissions.submit",
        config: { auth: false, prefix: "", policies: ["plugin::forms.from-site"] },
      },
    ],
  },
  admin: {
    type: "admin",
    routes: [
      {
        method: "GET",
        path: "/submissions.csv",
        handler: "submissions.exportCsv",
        config: { policies: ["admin::isAuthenticatedAdmin"] },
      },
    ],
  },
};
