"use strict";

/** `global::may-preview`: on Strapi's preview-URL route, the admin must be able to read the document (../preview/read-permission.js). */
module.exports = require("../preview/read-permission").mayPreview;
