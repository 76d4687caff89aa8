"use strict";

const { EngineUnavailable } = require("../services/search/groonga-client");

/**
 * GET /api/site-search?q=&locale=&page=. `q` at most maxQueryLength characters (400 beyond);
 * `locale` one of the CMS's locales (400 otherwise); `page` 1 to maxPage (400 otherwise). A query
 * without a word answers no result (`meta.terms: []`), never an error: the site says so. The
 * search engine not answering (Groonga down or slow) is a 503 that says so, logged; the site shows
 * its "search not available" page.
 */
module.exports = ({ strapi }) => ({
  async query(ctx) {
    const { q = "", locale, page: rawPage = "1" } = ctx.query ?? {};
    const config = (key) => strapi.config.get(`plugin::site-search.${key}`);
    if (typeof q !== "string" || q.length > config("maxQueryLength")) {
      return ctx.badRequest(`q must be one text of at most ${config("maxQueryLength")} characters`);
    }
    const locales = (await strapi.plugin("i18n").service("locales").find()).map((l) => l.code);
    if (typeof locale !== "string" || !locales.includes(locale)) {
      return ctx.badRequest(`locale must be one of ${locales.join(", ")}`);
    }
    const page = typeof rawPage === "string" && /^[1-9][0-9]{0,3}$/.test(rawPage) ? Number(rawPage) : NaN;
    if (!(page <= config("maxPage")))
      return ctx.badRequest(`page must be a whole number from 1 to ${config("maxPage")}`);

    const search = strapi.plugin("site-search").service("search");
    const terms = search.terms(q);
    let answer;
    try {
      answer = await search.query({ terms, locale, page });
    } catch (error) {
      if (!(error instanceof EngineUnavailable)) throw error;
      strapi.log.error(`[site-search] ${error.message}`);
      ctx.status = 503;
      ctx.body = {
        data: null,
        error: {
          status: 503,
          name: "ServiceUnavailableError",
          message: "The search engine is not available",
          details: {},
        },
      };
      return;
    }
    ctx.body = { data: answer.results, meta: { terms, pagination: answer.pagination } };
  },
});
