import { BlocksRenderer } from "@strapi/blocks-react-renderer";
import { data, isRouteErrorResponse, redirect } from "react-router";

import type { Route } from "./+types/cms-page";
import { PreviewBar } from "../components/preview-bar.tsx";
import { findPage, findPageLocales, findRedirect } from "../lib/cms/content.server.ts";
import { withCmsErrors } from "../lib/cms/http-errors.server.ts";
import { localePrefixedPath, parseLocalePath } from "../lib/locale-path.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { safeRedirectTarget } from "../lib/redirect-target.ts";
import { isPreviewRequest, PREVIEW_NO_STORE } from "../lib/preview/preview-cookie.server.ts";
import { cmsContext, configContext, markDynamic } from "../lib/request-context.server.ts";
import { headMeta, pageHead, SITE_NAME } from "../lib/seo/head.ts";

const NOT_FOUND = { message: "There is no page at this address." };

export async function loader({ request, context }: Route.LoaderArgs) {
  // The path is canonical already: other spellings were redirected before the router (server/app.ts).
  const url = new URL(request.url);
  const env = context.get(configContext);
  const config = localeConfigOf(env);
  // Preview (a valid signed cookie, docs/cms-contract.md "Preview"): the draft, for this visitor
  // alone. The page cache never answers such a request (server/cache/cache-key.ts) and the
  // render is marked personal as well, so it is never stored.
  const preview = isPreviewRequest(request, env.CMS_PREVIEW_SECRET);
  if (preview) markDynamic(context);
  const headers = preview ? PREVIEW_NO_STORE : undefined;
  const target = parseLocalePath(url.pathname, config);
  if (!target) throw data(NOT_FOUND, { status: 404, headers });

  const cms = context.get(cmsContext);
  const draft = preview
    ? env.CMS_PREVIEW_API_TOKEN
      ? { apiToken: env.CMS_PREVIEW_API_TOKEN, variable: "CMS_PREVIEW_API_TOKEN" }
      : { apiToken: env.CMS_REST_READONLY_API_KEY, variable: "CMS_REST_READONLY_API_KEY" }
    : undefined;
  return withCmsErrors(async () => {
    const page = await findPage(cms, target.fullPath, target.locale, draft);
    if (page) {
      // One more CMS request, for hreflang, and only where there is another locale to point to.
      const translations =
        config.locales.length > 1
          ? await findPageLocales(cms, page.documentId, localePrefixedPath(page.fullPath, page.locale))
          : [];
      const origin = new URL(env.APP_PUBLIC_URL).origin;
      const head = pageHead({ page, translations, origin, cmsUrl: env.CMS_URL, config });
      const exitHref = `/api/preview/exit?${new URLSearchParams({ path: url.pathname })}`;
      return data({ page, head, preview: preview ? { exitHref } : null }, { headers });
    }

    const entry = await findRedirect(cms, localePrefixedPath(target.fullPath, target.locale));
    const destination = entry && safeRedirectTarget(entry.destination);
    if (entry && !destination) console.error(`[cms] redirect ${entry.source} has an unusable destination`);
    if (destination) throw redirect(destination, entry.permanent ? 308 : 307);

    throw data(NOT_FOUND, { status: 404, headers });
  });
}

/** A preview answer's no-store headers (the loader's, or those of the 404 it threw). */
export function headers({ loaderHeaders, errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? loaderHeaders;
}

export default function CmsPage({ loaderData: { page, preview } }: Route.ComponentProps) {
  return (
    <article className="cms-page">
      {preview && <PreviewBar exitHref={preview.exitHref} />}
      <h1>{page.title}</h1>
      <BlocksRenderer content={page.body} />
    </article>
  );
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [{ title: `Page not found | ${SITE_NAME}` }];
  return headMeta(data.head);
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = notFound ? "Page not found" : "This page could not be loaded";
  const payload: unknown = isRouteErrorResponse(error) ? error.data : null;
  const message =
    payload && typeof payload === "object" && "message" in payload && typeof payload.message === "string"
      ? payload.message
      : "Please try again later.";
  return (
    <section className="error-page">
      <title>{`${title} | Acme`}</title>
      <h1>{title}</h1>
      <p>{message}</p>
    </section>
  );
}
