"use strict";

/**
 * Who calls: the payload of the Bearer JWT and its user, or an answer to send instead.
 * Pure apart from the two functions it is given (the JWT service's getToken and a user lookup).
 */
async function callerOf(ctx, { getToken, findUser }) {
  let payload;
  try {
    payload = await getToken(ctx);
  } catch {
    payload = null;
  }
  if (!payload || payload.id === undefined) return { answer: unauthorized() };
  const user = await findUser(payload.id);
  if (!user || user.blocked) return { answer: unauthorized() };
  return { payload, user };
}

function unauthorized() {
  return {
    status: 401,
    body: {
      data: null,
      error: { status: 401, name: "UnauthorizedError", message: "Missing or invalid credentials", details: {} },
    },
  };
}

module.exports = { callerOf, unauthorized };
