/**
 * Shown above a page rendered in preview (drafts, app/routes/cms-page.tsx). The exit link is a
 * plain link, so it works without JavaScript and leaves through a full page load: the exit
 * route clears the preview cookie and redirects back to the page as everybody sees it.
 */
export function PreviewBar({ exitHref }: { exitHref: string }) {
  return (
    <aside className="preview-bar" aria-label="Preview">
      <strong>Preview: draft</strong>
      <span>This page shows unpublished changes. Only you see it.</span>
      <a href={exitHref}>Exit preview</a>
    </aside>
  );
}
