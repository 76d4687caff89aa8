import { useId } from "react";
import { Link } from "react-router";

import { ArticleList } from "../blog/article-list.tsx";
import type { LatestArticlesSection } from "./types.ts";

/** The newest articles (fetched by the page's loader), and a link to the blog. Nothing when there are none. */
export function LatestArticles({ section }: { section: LatestArticlesSection }) {
  const headingId = useId();
  if (section.articles.length === 0) return null;
  return (
    <section className="section section-latest-articles" aria-labelledby={section.heading ? headingId : undefined}>
      {section.heading && <h2 id={headingId}>{section.heading}</h2>}
      <ArticleList articles={section.articles} level={section.heading ? 3 : 2} />
      {section.blog && (
        <p>
          <Link to={section.blog.href}>{section.blog.label}</Link>
        </p>
      )}
    </section>
  );
}
