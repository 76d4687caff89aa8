import { BlocksRenderer } from "@strapi/blocks-react-renderer";
import { data, Link } from "react-router";

import type { Route } from "./+types/blog.$slug";
import { BODY_BLOCKS, CmsImage } from "../components/cms-image.tsx";
import { PreviewBar } from "../components/preview-bar.tsx";
import { blogPath } from "../lib/blog/paths.ts";
import { blogWords, formatArticleDate } from "../lib/blog/words.ts";
import { adjacentArticles, findArticle, findArticleLocales } from "../lib/cms/articles.server.ts";
import { loadErrorText } from "../lib/cms/error-page.server.ts";
import { withCmsErrors } from "../lib/cms/http-errors.server.ts";
import { BODY_IMAGE_SIZES, imageAttributes, withBodyMedia } from "../lib/cms/media.ts";
import { contentNotFound, contentPreview, contentRouteContext, pathLocale } from "../lib/content-route.server.ts";
import { localizedPath } from "../lib/locale-path.ts";
import { headMeta, pageHead, SITE_NAME } from "../lib/seo/head.ts";

/**
 * An article (`/blog/<slug>`, `/de/blog/<slug>`): title, date, author, category, cover, body,
 * and links to the previous (older) and next (newer) article. docs/cms-contract.md, "Articles".
 * In preview (the admin's Preview of an article, docs/cms-contract.md "Preview"): its draft, for
 * that visitor alone, never stored; its links and alternates stay the published ones.
 */
export async function loader({ request, context, url, params }: Route.LoaderArgs) {
  const { cms, log, config, origin, mediaBase } = contentRouteContext(context);
  const preview = contentPreview(request, context, url);
  const locale = pathLocale(url.pathname, blogPath({ slug: params.slug }), config);
  if (!locale) throw await contentNotFound(context, config.defaultLocale, preview);
  return withCmsErrors(
    log,
    async () => {
      const article = await findArticle(cms, params.slug, locale, preview?.draft);
      if (!article) throw await contentNotFound(context, locale, preview);
      const [translations, adjacent] = await Promise.all([
        config.locales.length > 1 ? findArticleLocales(cms, article.documentId) : Promise.resolve([]),
        adjacentArticles(cms, article),
      ]);
      const fullPath = blogPath({ slug: article.slug });
      const localized = translations.map((t) => ({ locale: t.locale, fullPath: blogPath({ slug: t.slug }) }));
      const head = pageHead({
        page: {
          title: article.title,
          fullPath,
          locale,
          seo: { metaDescription: article.excerpt, shareImage: article.cover },
        },
        translations: localized,
        origin,
        mediaBase,
        config,
      });
      const href = (path: string) => localizedPath(path, locale, config);
      const cover = article.cover
        ? imageAttributes(article.cover, { base: mediaBase, lazy: false, sizes: BODY_IMAGE_SIZES })
        : null;
      const link = (other: { title: string; slug: string } | null) =>
        other && { title: other.title, href: href(blogPath({ slug: other.slug })) };
      return data(
        {
          locale,
          head,
          // The header's locale switcher (SwitcherData): the article in its other published locales.
          translations: localized,
          article: {
            title: article.title,
            dateTime: article.date,
            dateText: formatArticleDate(article.date, locale),
            author: article.author,
            category: article.category && {
              name: article.category.name,
              href: href(blogPath({ category: article.category.slug })),
            },
            cover,
            // The cover is the page's first image: the body's come after it, lazily.
            body: withBodyMedia(article.body, mediaBase, cover ? 1 : 0),
          },
          previous: link(adjacent.previous),
          next: link(adjacent.next),
          blog: href(blogPath()),
          preview: preview ? { exitHref: preview.exitHref, adminOrigin: preview.adminOrigin } : null,
        },
        { headers: preview?.headers },
      );
    },
    (error) => (error.status === 503 ? Promise.resolve(null) : loadErrorText(context, "error", locale)),
  );
}

/** A preview answer's no-store headers (the loader's, or those of the 404 it threw). */
export function headers({ loaderHeaders, errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData ? headMeta(loaderData.head) : [{ title: SITE_NAME }];
}

export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  const { article, previous, next } = loaderData;
  const words = blogWords(loaderData.locale);
  return (
    <article className="blog-article">
      {loaderData.preview && <PreviewBar {...loaderData.preview} />}
      <p>
        <Link to={loaderData.blog}>{words.blog}</Link>
      </p>
      <h1>{article.title}</h1>
      <p className="article-meta">
        {article.dateTime && <time dateTime={article.dateTime}>{article.dateText}</time>}
        {article.author && (
          <>
            {" · "}
            {words.by} <span className="article-author">{article.author.name}</span>
            {article.author.role && <> ({article.author.role})</>}
          </>
        )}
        {article.category && (
          <>
            {" · "}
            {words.in} <Link to={article.category.href}>{article.category.name}</Link>
          </>
        )}
      </p>
      {article.cover && <CmsImage media={article.cover} className="article-cover" />}
      <BlocksRenderer content={article.body} blocks={BODY_BLOCKS} />
      {(previous || next) && (
        <nav className="article-adjacent" aria-label={words.blog}>
          {previous ? (
            <Link to={previous.href} rel="prev">
              {words.previous}: {previous.title}
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link to={next.href} rel="next">
              {words.next}: {next.title}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </article>
  );
}
