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
  return { username };
}

module.exports = { checkUsername, USERNAME_MIN: MIN, USERNAME_MAX: MAX };
