import { Scripts, ScrollRestoration } from "react-router";

import { SPECULATION_RULES_JSON } from "../lib/speculation-rules.ts";
import stylesheetText from "../styles.css?inline";
import stylesheetHref from "../styles.css?url";

/**
 * What a page sends besides its markup, by whether it hydrates (app/lib/hydration.ts; why:
 * docs/decisions/0035-no-javascript-on-content-pages.md).
 */

/**
 * The one stylesheet. A page that hydrates links it (one file, kept by the browser and the CDN
 * across pages); a content page carries it inline, so a first visit renders without a second
 * round trip. `import.meta.env.SSR` keeps the text out of the browser's bundle: code runs there
 * only on pages that hydrate, which link the file.
 */
export function PageStylesheet({ hydrates }: { hydrates: boolean }) {
  if (hydrates) return <link rel="stylesheet" href={stylesheetHref} />;
  return <style dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? stylesheetText : "" }} />;
}

/**
 * The end of the body: React Router's client (the entry module, its modulepreloads, the loader
 * data) and its scroll restoration for a page that hydrates; the speculation rules, which let the
 * browser prerender the next page, for one that does not.
 */
export function PageScripts({ hydrates }: { hydrates: boolean }) {
  if (!hydrates) {
    return <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES_JSON }} />;
  }
  return (
    <>
      <ScrollRestoration />
      <Scripts />
    </>
  );
}
