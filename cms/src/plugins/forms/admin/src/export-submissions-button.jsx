import { useState } from "react";
import { Button } from "@strapi/design-system";
import { Download } from "@strapi/icons";
import { useFetchClient, useNotification, useQueryParams, useRBAC } from "@strapi/strapi/admin";
import { useParams } from "react-router-dom";

/**
 * "Export CSV" in the Content Manager's list of form submissions: downloads GET
 * /forms/submissions.csv (server/controllers/submissions.js) with the admin's own token
 * (useFetchClient attaches it). When the list is filtered to one form (Strapi's own filter,
 * `form` is …), the export is that form's; otherwise every form's. Shown only to admins whose role
 * may read submissions (src/admin-grants.js: the Editor, not the Author), the grant the route
 * checks again; on every other list it renders nothing.
 */
const UID = "plugin::forms.submission";
const READ = [{ action: "plugin::content-manager.explorer.read", subject: UID }];

/** The form name the list is filtered to (`filters[$and][n][form][$eq]`), or undefined. */
export function filteredForm(query) {
  const clauses = Array.isArray(query?.filters?.$and) ? query.filters.$and : [];
  const names = clauses.map((clause) => clause?.form?.$eq).filter((name) => typeof name === "string" && name !== "");
  return names.length === 1 ? names[0] : undefined;
}

const fileNameOf = (disposition) => /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "form-submissions.csv";

export const ExportSubmissionsButton = () => {
  const { slug } = useParams();
  return slug === UID ? <ExportButton /> : null;
};

const ExportButton = () => {
  const { get } = useFetchClient();
  const { toggleNotification } = useNotification();
  const [{ query }] = useQueryParams();
  const { isLoading, allowedActions } = useRBAC(READ);
  const [busy, setBusy] = useState(false);
  if (isLoading || !allowedActions.canRead) return null;
  const form = filteredForm(query);

  const download = async () => {
    setBusy(true);
    try {
      const { data, headers } = await get("/forms/submissions.csv", {
        params: form ? { form } : {},
        responseType: "blob",
      });
      const href = URL.createObjectURL(data);
      const link = Object.assign(document.createElement("a"), {
        href,
        download: fileNameOf(headers?.get?.("content-disposition")),
      });
      document.body.append(link);
      link.click();
      link.remove();
      // After the click has handed the file to the browser's download.
      setTimeout(() => URL.revokeObjectURL(href), 0);
    } catch (error) {
      toggleNotification({ type: "danger", message: `Export failed: ${error?.message ?? "unknown error"}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="secondary" startIcon={<Download />} onClick={download} disabled={busy}>
      {form ? `Export CSV (${form})` : "Export CSV (all forms)"}
    </Button>
  );
};
