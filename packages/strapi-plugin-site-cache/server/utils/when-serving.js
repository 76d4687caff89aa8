"use strict";

/**
 * Runs `fn` once Strapi serves requests: when its HTTP server starts listening, which is after the
 * whole start (every plugin's bootstrap, the admin's, then the application's, where a project seeds
 * its demo content). So what the plugin does on its own (revalidating writes, scheduled publishing)
 * begins after the application's bootstrap, whatever that writes, and before the first request.
 * A Strapi loaded without a server (a script, `strapi console`) never runs it.
 */
function whenServing(strapi, fn) {
  const server = strapi.server?.httpServer;
  if (!server) return;
  if (server.listening) fn();
  else server.once("listening", fn);
}

module.exports = { whenServing };
