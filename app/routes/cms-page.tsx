import { BlocksRenderer } from "@strapi/blocks-react-renderer";
import { data, isRouteErrorResponse, redirect, useRouteLoaderData } from "react-router";

import type { Route } from "./+types/cms-page";
import { BODY_BLOCKS } from "../components/cms-image.tsx";
import type { SwitcherData } from "../components/locale-switcher.tsx";
import { PreviewBar } from "../components/preview-bar.tsx";
import {
  CONTENT_TYPE_SECTIONS_POPULATE,
  contentTypeSections,
  loadContentTypeSections,
  prepareContentTypeSection,
} from "../content-types/modules.server.ts";
import { Sections } from "../components/sections/registry.tsx";
import type { FormSection, FormState, Section } from "../components/sections/types.ts";
import { formTokenFor } from "../lib/auth/form-action.server.ts";
import { findPage, findPageLocales, findRedirect } from "../lib/cms/content.server.ts";
import { loadErrorText } from "../lib/cms/error-page.server.ts";
import { errorPageText, errorPayloadText } from "../lib/cms/error-page.ts";
import { withCmsErrors } from "../lib/cms/http-errors.server.ts";
import { withBodyMedia } from "../lib/cms/media.ts";
import { formTokenKey } from "../lib/forms/form-fields.ts";
import { handleFormPost } from "../lib/forms/form-post.server.ts";
import { prepareSections } from "../lib/cms/sections.server.ts";
import { localePrefixedPath, parseLocalePath } from "../lib/locale-path.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { safeRedirectTarget } from "../lib/redirect-target.ts";
import { contentPreview } from "../lib/content-route.server.ts";
import { cmsContext, configContext, logContext } from "../lib/request-context.server.ts";
import { headMeta, pageHead, SITE_NAME } from "../lib/seo/head.ts";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // The path is canonical already: other spellings were redirected before the router (server/app.ts).
  // `url` is the page's address (React Router 8 passes the raw request: `/company.data` there).
  const env = context.get(configContext);
  const config = localeConfigOf(env);
  // Preview (a valid signed cookie, docs/cms-contract.md "Preview"): the draft, for this visitor
  // alone. The page cache never answers such a request (server/page-cache-policy.ts) and the
  // render is marked personal as well, so it is never stored.
  const preview = contentPreview(request, context, url);
  const headers = preview?.headers;
  const target = parseLocalePath(url.pathname, config);
  // The 404's words come from the CMS's Error page (app/lib/cms/error-page.server.ts); its tag
  // goes with the cached 404, so a publish of the Error page reaches it.
  const notFound = async (locale: string) =>
    data(await loadErrorText(context, "not-found", locale), { status: 404, headers });
  if (!target) throw await notFound(config.defaultLocale);

  const cms = context.get(cmsContext);
  const log = context.get(logContext);
  return withCmsErrors(
    log,
    async () => {
      const page = await findPage(cms, target.fullPath, target.locale, preview?.draft, CONTENT_TYPE_SECTIONS_POPULATE);
      if (page) {
        // One more CMS request, for hreflang, and only where there is another locale to point to;
        // one per section a content type loads for (app/content-types/: latest articles; none on
        // most pages), at the same time.
        const typed = contentTypeSections(page.sections);
        const [translations, loaded] = await Promise.all([
          config.locales.length > 1
            ? findPageLocales(cms, page.documentId, localePrefixedPath(page.fullPath, page.locale))
            : Promise.resolve([]),
          loadContentTypeSections(cms, typed, page.locale),
        ]);
        const origin = new URL(env.APP_PUBLIC_URL).origin;
        const mediaBase = env.CMS_MEDIA_URL ?? null;
        const head = pageHead({ page, translations, origin, mediaBase, config });
        const body = withBodyMedia(page.body, mediaBase);
        // The sections come after the body (docs/cms-contract.md, "Sections"): images and links
        // made ready here, so the server's HTML and the browser's render agree.
        const imagesBefore = body.filter((node) => node.type === "image" && "media" in node && node.media).length;
        const sections = prepareSections(page.sections, {
          base: mediaBase,
          locale: page.locale,
          config,
          imagesBefore,
          contentTypeSection: (index) =>
            prepareContentTypeSection(
              typed.find((section) => section.index === index),
              loaded,
              { locale: page.locale, config, base: mediaBase },
            ),
          // A form posts to this address; its bot-check token is issued with the render (docs/forms.md).
          forms: { action: url.pathname, tokenFor: (id) => formTokenFor(context, formTokenKey(url.pathname, id)) },
          log,
        });
        // The locale switcher's targets (app/components/locale-switcher.tsx): the same CMS answer
        // as hreflang, tagged with the page's document, so a publish of a translation reaches them.
        const switcher: SwitcherData = { translations: translations.filter((t) => config.locales.includes(t.locale)) };
        return data(
          {
            page: { ...page, body, sections },
            head,
            preview: preview ? { exitHref: preview.exitHref, adminOrigin: preview.adminOrigin } : null,
            ...switcher,
          },
          { headers },
        );
      }

      const entry = await findRedirect(cms, localePrefixedPath(target.fullPath, target.locale));
      const destination = entry && safeRedirectTarget(entry.destination);
      if (entry && !destination) log.error(`[cms] redirect ${entry.source} has an unusable destination`);
      if (destination) throw redirect(destination, entry.permanent ? 308 : 307);

      throw await notFound(target.locale);
    },
    (error) =>
      // The CMS down: not asked again; the message says what failed. Otherwise the Error page's words.
      error.status === 503 ? Promise.resolve(null) : loadErrorText(context, "error", target.locale),
  );
}

/** A form section's post (app/lib/forms/form-post.server.ts): the page again with its answer, never cached. */
export async function action({ request, context, url }: Route.ActionArgs) {
  return handleFormPost(request, context, url);
}

/**
 * A post's no-store headers (the action's, or those of the error it threw), a preview answer's
 * (the loader's, or those of the 404 it threw).
 */
export function headers({ actionHeaders, loaderHeaders, errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? (actionHeaders.has("cache-control") ? actionHeaders : loaderHeaders);
}

export default function CmsPage({ loaderData: { page, preview }, actionData }: Route.ComponentProps) {
  return (
    <article className="cms-page">
      {preview && <PreviewBar {...preview} />}
      <h1>{page.title}</h1>
      <BlocksRenderer content={page.body} blocks={BODY_BLOCKS} />
      <Sections sections={withFormState(page.sections, actionData?.form)} />
    </article>
  );
}

/**
 * The sections with a post's answer in the form it was for (a refusal before the post was read,
 * the origin check or the rate limit, names no form: the page's first form shows it).
 */
function withFormState(sections: readonly Section[], state: FormState | undefined): readonly Section[] {
  if (!state) return sections;
  const forms = sections.filter((section): section is FormSection => section.__component === "sections.form");
  const target = forms.find((form) => form.id === state.sectionId) ?? forms[0];
  return sections.map((section) => (section === target ? { ...target, state } : section));
}

/** The words of an error page: the loader's (CMS or built-in), else the built-in ones of the locale. */
function errorWords(error: unknown, locale: string) {
  const fallback = errorPageText(
    isRouteErrorResponse(error) && error.status === 404 ? "not-found" : "error",
    null,
    locale,
  );
  return { ...fallback, ...errorPayloadText(isRouteErrorResponse(error) ? error.data : null) };
}

export function meta({ loaderData, error, matches }: Route.MetaArgs) {
  if (!loaderData) return [{ title: `${errorWords(error, localeOf(matches)).title} | ${SITE_NAME}` }];
  return headMeta(loaderData.head);
}

const localeOf = (matches: Route.MetaArgs["matches"]) =>
  (matches[0]?.loaderData as { locale?: string } | undefined)?.locale ?? "en";

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRouteLoaderData<{ locale?: string }>("root");
  const { title, message } = errorWords(error, root?.locale ?? "en");
  return (
    // Its <title> comes from meta(), which runs for errors too.
    <section className="error-page">
      <h1>{title}</h1>
      <p>{message}</p>
    </section>
  );
}
