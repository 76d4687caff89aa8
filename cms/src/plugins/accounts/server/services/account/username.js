"use strict";

/** The rules of a username a user chooses (the site checks the same: app/lib/auth/schemas.ts). */
const MIN = 3;
const MAX = 50;

/** The trimmed username, or an error message. */
function checkUsername(value) {
  if (typeof value !== "string") return { error: "username must be a string" };
  const username = value.trim();
  if (username.length < MIN || username.length > MAX) return { error: `username must be ${MIN} to ${MAX} characters` };
  if (/[\u0000-\u001f\u007f]/.test(username)) return { error: "username must not contain control characters" };
  // Strapi signs in and registers by `email = x OR username = x`: a chosen name that looks like
  // an address could take someone's email from them (their register refused, their sign-in
  // matched to this account). New accounts get their email as username; a chosen one never has @.
  if (username.includes("@")) return { error: "username must not contain @" };
  return { username };
}

module.exports = { checkUsername, USERNAME_MIN: MIN, USERNAME_MAX: MAX };
