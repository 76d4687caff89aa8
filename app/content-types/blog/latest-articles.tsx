import { useId } from "react";
import { Link } from "react-router";

import { ArticleList } from "../../components/blog/article-list.tsx";
import type { ArticleCard } from "../../lib/blog/cards.ts";

/** The newest articles of the page's locale (of one category, when the editor chose one). */
export interface LatestArticlesSection {
  __component: "sections.latest-articles";
  heading: string | null;
  articles: ArticleCard[];
  /** The blog's listing in the page's locale, and the link's words ("All articles"). */
  blog: { href: string; label: string } | null;
}

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
