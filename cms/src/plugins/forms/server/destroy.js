"use strict";

module.exports = ({ strapi }) => {
  strapi.plugin("forms").service("mail-delivery").stop();
};
