import { useEffect, useState } from "react";
import { Badge, Box, Button, Flex, Table, Tbody, Td, Th, Thead, Tr, Typography } from "@strapi/design-system";
import { Layouts, Page, useFetchClient, useNotification, useRBAC } from "@strapi/strapi/admin";

import { PURGE_PERMISSION } from "./permissions.js";
import { errorMessage } from "./site-cache-actions.js";
import { useCdnPurge } from "./use-cdn-purge.js";

/**
 * The "Site cache" page of the admin's main menu (registered in index.js): the revalidations the
 * site did not accept (content type "Revalidation failure", recorded by the revalidation
 * service), a "Retry now" for them, and "Purge the whole CDN". The data comes from GET
 * /site-cache/failures (the "Revalidate the site cache" permission); the purge button shows only
 * for admins with the "Purge the CDN" permission (POST /site-cache/cdn-purge checks it again), and
 * only when the CMS has a CDN purge set up (use-cdn-purge.js).
 */
const STATE_TEXT = {
  pending: "pending: retried automatically",
  unauthorized: "unauthorized: the secrets differ",
  rejected: "rejected by the site",
};

const SiteCachePage = () => {
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { allowedActions } = useRBAC(PURGE_PERMISSION);
  const cdnPurge = useCdnPurge(Boolean(allowedActions.canPurgeCdn));
  const [failures, setFailures] = useState(null);
  const [loadError, setLoadError] = useState(null);
  const [busy, setBusy] = useState(false);

  // Bumped after each action: the list is loaded anew.
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    let current = true;
    get("/site-cache/failures").then(
      ({ data }) => {
        if (!current) return;
        setFailures(data);
        setLoadError(null);
      },
      (error) => current && setLoadError(errorMessage(error)),
    );
    return () => {
      current = false;
    };
  }, [get, loads]);

  const act = async (request, success, failure) => {
    setBusy(true);
    try {
      const { data } = await request();
      toggleNotification({ type: "success", message: success(data?.data) });
    } catch (error) {
      toggleNotification({ type: "danger", message: `${failure}: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
      setLoads((n) => n + 1);
    }
  };

  const retry = () =>
    act(
      () => post("/site-cache/failures/retry", {}),
      (result) =>
        `Retried ${result?.retried ?? 0}, delivered ${result?.delivered ?? 0}` +
        // Rows the CMS did not record as they are: marked rejected, never sent (decision 0030).
        (result?.refused ? `, refused ${result.refused} whose signature does not verify` : ""),
      "Retry failed",
    );
  const purgeEverything = () =>
    act(
      () => post("/site-cache/cdn-purge", { everything: true }),
      () => "CDN purged: everything",
      "CDN purge failed",
    );

  const rows = failures?.data ?? [];
  return (
    <Page.Main>
      <Page.Title>Site cache</Page.Title>
      <Layouts.Header
        title="Site cache"
        subtitle="Revalidations the site did not accept, and the CDN in front of it"
        primaryAction={
          allowedActions.canPurgeCdn && cdnPurge ? (
            <Button variant="danger-light" onClick={purgeEverything} disabled={busy}>
              Purge the whole CDN
            </Button>
          ) : null
        }
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={4}>
          <Flex justifyContent="space-between">
            <Typography variant="delta" tag="h2">
              Revalidation failures ({failures ? failures.meta.total : "…"})
            </Typography>
            <Button variant="secondary" onClick={retry} disabled={busy || rows.length === 0}>
              Retry now
            </Button>
          </Flex>
          {loadError ? <Typography textColor="danger600">Could not load the failures: {loadError}</Typography> : null}
          {failures && rows.length === 0 ? (
            <Box padding={4} background="neutral0" hasRadius>
              <Typography>No revalidation failures: the site accepted every revalidation.</Typography>
            </Box>
          ) : null}
          {rows.length > 0 ? (
            <Table colCount={6} rowCount={rows.length + 1}>
              <Thead>
                <Tr>
                  <Th>
                    <Typography variant="sigma">Content type</Typography>
                  </Th>
                  <Th>
                    <Typography variant="sigma">Paths and tags</Typography>
                  </Th>
                  <Th>
                    <Typography variant="sigma">State</Typography>
                  </Th>
                  <Th>
                    <Typography variant="sigma">Attempts</Typography>
                  </Th>
                  <Th>
                    <Typography variant="sigma">Last error</Typography>
                  </Th>
                  <Th>
                    <Typography variant="sigma">Last tried</Typography>
                  </Th>
                </Tr>
              </Thead>
              <Tbody>
                {rows.map((row) => (
                  <Tr key={row.id}>
                    <Td>
                      <Typography>{row.uid}</Typography>
                    </Td>
                    <Td>
                      <Typography>
                        {row.what}
                        {row.takedown ? " (takedown)" : ""}
                      </Typography>
                    </Td>
                    <Td>
                      <Badge>{STATE_TEXT[row.state] ?? row.state}</Badge>
                    </Td>
                    <Td>
                      <Typography>{row.attempts}</Typography>
                    </Td>
                    <Td>
                      <Typography>
                        {[row.lastStatus, row.lastError].filter((part) => part !== null).join(" ") || "none"}
                      </Typography>
                    </Td>
                    <Td>
                      <Typography>{row.lastTriedAt ? new Date(row.lastTriedAt).toLocaleString() : "never"}</Typography>
                    </Td>
                  </Tr>
                ))}
              </Tbody>
            </Table>
          ) : null}
        </Flex>
      </Layouts.Content>
    </Page.Main>
  );
};

export default SiteCachePage;
