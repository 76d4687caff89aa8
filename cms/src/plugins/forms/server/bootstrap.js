"use strict";

/** Starts the retry of mails not yet sent (services/mail-delivery.js); stopped by destroy.js. */
module.exports = ({ strapi }) => {
  strapi.plugin("forms").service("mail-delivery").start();
};
