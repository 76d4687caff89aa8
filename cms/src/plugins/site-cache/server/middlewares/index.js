"use strict";

const { answerAfterHeldWork } = require("./hold-answer");

module.exports = {
  // Installed on every request by register.js (strapi.server.use): see hold-answer.js.
  "hold-answer": () => answerAfterHeldWork,
};
