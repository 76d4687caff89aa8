import { useAdminQuestion } from "./use-admin-question.js";

/**
 * Whether this CMS has a CDN purge set up (GET /site-cache/capabilities, server/controllers/
 * capabilities.js): the "Purge CDN" action and the "Purge the whole CDN" button show only then.
 * `allowed`: the admin may purge (asked only then; the route needs that permission).
 * → null while unknown, then true or false (false too when the question failed: a button that
 * cannot work is not shown).
 */
export function useCdnPurge(allowed) {
  const answer = useAdminQuestion("/site-cache/capabilities", allowed);
  if (!allowed || answer === undefined) return null;
  return answer?.cdnPurge === true;
}
