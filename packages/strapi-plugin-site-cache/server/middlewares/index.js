"use strict";

const { answerAfterHeldWork } = require("./hold-answer");
const { omitCycleParents } = require("./parent-picker");

module.exports = {
  // Installed on every request by register.js (strapi.server.use): see hold-answer.js.
  "hold-answer": () => answerAfterHeldWork,
  // Installed by register.js too: the page parent picker offers no cycle (parent-picker.js).
  "parent-picker": (_config, { strapi }) => omitCycleParents({ strapi }),
};
