import { useEffect, useState } from "react";
import { useFetchClient } from "@strapi/strapi/admin";

/**
 * Whether this CMS has a CDN purge set up (GET /site-cache/capabilities, server/controllers/
 * capabilities.js): the "Purge CDN" action and the "Purge the whole CDN" button show only then.
 * `allowed`: the admin may purge (asked only then; the route needs that permission).
 * → null while unknown, then true or false (false too when the question failed: a button that
 * cannot work is not shown).
 *
 * One question per admin page load, shared by every caller: the CMS's configuration does not
 * change while it runs. A failed one is asked again by the next caller.
 */
let answer = null;

export function useCdnPurge(allowed) {
  const { get } = useFetchClient();
  const [cdnPurge, setCdnPurge] = useState(null);
  useEffect(() => {
    if (!allowed) return undefined;
    let current = true;
    answer ??= get("/site-cache/capabilities").then(
      ({ data }) => data?.data?.cdnPurge === true,
      () => {
        answer = null;
        return false;
      },
    );
    answer.then((value) => current && setCdnPurge(value));
    return () => {
      current = false;
    };
  }, [allowed, get]);
  return allowed ? cdnPurge : null;
}
