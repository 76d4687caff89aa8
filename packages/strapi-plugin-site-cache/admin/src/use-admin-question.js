import { useEffect, useState } from "react";
import { useFetchClient } from "@strapi/strapi/admin";

/**
 * GET `endpoint` (one of the plugin's admin routes) once per admin page load, shared by every
 * caller: the CMS's configuration and its content types do not change while it runs. Asked only
 * when `allowed` (the admin has the route's permission). → `undefined` while unknown, the answer's
 * `data`, or `null` when the question failed (asked again by the next caller). One entry per
 * endpoint: a handful at most.
 */
const asked = new Map();

export function useAdminQuestion(endpoint, allowed) {
  const { get } = useFetchClient();
  const [answer, setAnswer] = useState(undefined);
  useEffect(() => {
    if (!allowed) return undefined;
    let current = true;
    if (!asked.has(endpoint)) {
      asked.set(
        endpoint,
        get(endpoint).then(
          ({ data }) => data?.data ?? null,
          () => {
            asked.delete(endpoint);
            return null;
          },
        ),
      );
    }
    asked.get(endpoint).then((value) => current && setAnswer(value));
    return () => {
      current = false;
    };
  }, [allowed, endpoint, get]);
  return allowed ? answer : undefined;
}
