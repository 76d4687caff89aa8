"use strict";

/**
 * Forwards a purge to the front end's POST /api/cdn-purge with the CDN purge secret (a
 * different secret from the revalidation one). Never throws: { status, body } where status
 * is what the CMS should answer: the front end's 200 / 501, 502 for anything else it said
 * or for no answer at all; `siteStatus`: what the front end answered, when it did.
 */
async function forwardPurge(request, { clientUrl, secret, timeoutMs = 10_000, fetchImpl = fetch }) {
  let response;
  try {
    response = await fetchImpl(`${clientUrl}/api/cdn-purge`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { status: 502, body: { error: `The front end could not be reached at ${clientUrl}: ${error.message}` } };
  }
  const body = await response.json().catch(() => null);
  if (response.status === 200 || response.status === 501) return { status: response.status, body };
  if (response.status === 401) {
    return {
      status: 502,
      siteStatus: 401,
      body: {
        error: "The front end refused the CDN purge secret: CMS_CDN_PURGE_SECRET must be the same on both sides.",
      },
    };
  }
  return {
    status: 502,
    siteStatus: response.status,
    body: { error: `The front end answered ${response.status}`, response: body },
  };
}

module.exports = { forwardPurge };
