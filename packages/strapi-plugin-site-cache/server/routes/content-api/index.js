"use strict";

// Nothing of the site cache is for the content API: every endpoint is an admin action.
module.exports = { type: "content-api", routes: [] };
