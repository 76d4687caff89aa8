import { Badge, Flex, Typography } from "@strapi/design-system";

/**
 * The "Schedule" column of the Content Manager's list view, for every type whose schema declares
 * `"site-cache": { "schedule": true }` (docs/scheduled-publishing.md): when the draft in the
 * listed locale is due to be published or unpublished, in the browser's language and time zone,
 * with the exact time (UTC) in a <time> element. Registered on the list view's
 * `inject-column-in-table` hook, as Strapi's i18n adds its "Available in" column. An entry with
 * no schedule shows a dash, as Strapi's own empty cells do.
 */
const FIELDS = [
  { field: "publishAt", label: "Publishes", variant: "success" },
  { field: "unpublishAt", label: "Unpublishes", variant: "danger" },
];

const formatted = (value) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));

const ScheduleCell = ({ row }) => {
  const due = FIELDS.filter(({ field }) => row?.[field]);
  if (due.length === 0)
    return (
      <Typography textColor="neutral800" data-site-cache-schedule="">
        -
      </Typography>
    );
  return (
    <Flex direction="column" alignItems="flex-start" gap={1} data-site-cache-schedule="">
      {due.map(({ field, label, variant }) => (
        <Flex key={field} gap={2}>
          <Badge variant={variant}>{label}</Badge>
          <Typography textColor="neutral800">
            <time dateTime={new Date(row[field]).toISOString()}>{formatted(row[field])}</time>
          </Typography>
        </Flex>
      ))}
    </Flex>
  );
};

const isScheduled = (layout) => layout?.options?.["site-cache"]?.schedule === true;

export const addScheduleColumn = ({ displayedHeaders, layout }) => {
  if (!isScheduled(layout)) return { displayedHeaders, layout };
  return {
    displayedHeaders: [
      ...displayedHeaders,
      {
        attribute: { type: "string" },
        label: { id: "site-cache.list-view.schedule", defaultMessage: "Schedule" },
        searchable: false,
        sortable: false,
        name: "schedule",
        cellFormatter: (row) => <ScheduleCell row={row} />,
      },
    ],
    layout,
  };
};
