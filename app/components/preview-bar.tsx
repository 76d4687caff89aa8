import { useLivePreview } from "../lib/preview/live-preview.ts";

/**
 * Shown above a page rendered in preview (drafts, app/routes/cms-page.tsx). The exit link is a
 * plain link, so it works without JavaScript and leaves through a full page load: the exit
 * route clears the preview cookie and redirects back to the page as everybody sees it.
 *
 * A page in preview hydrates (app/lib/hydration.ts), and the bar is where it listens to the CMS
 * admin: a save in the admin's Preview re-renders the page with the saved draft, in place
 * (app/lib/preview/live-preview.ts). Without JavaScript only a reload shows a newer draft.
 */
export function PreviewBar({ exitHref, adminOrigin }: { exitHref: string; adminOrigin: string }) {
  const live = useLivePreview(adminOrigin);
  return (
    <aside className="preview-bar" aria-label="Preview">
      <strong>Preview: draft</strong>
      <span>
        This page shows unpublished changes. Only you see it.
        {live && " It updates when you save in the CMS."}
      </span>
      <a href={exitHref}>Exit preview</a>
    </aside>
  );
}
