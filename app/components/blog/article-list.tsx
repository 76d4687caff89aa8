import { Link } from "react-router";

import type { ArticleCard } from "../../lib/blog/cards.ts";
import { CmsImage } from "../cms-image.tsx";

/** A list of articles: cover, title (a link), date, category, excerpt. Headings at `level`. */
export function ArticleList({ articles, level = 2 }: { articles: readonly ArticleCard[]; level?: 2 | 3 }) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <ul className="article-list">
      {articles.map((article) => (
        <li key={article.href} className="article-card">
          {article.image && <CmsImage media={article.image} />}
          <Heading>
            <Link to={article.href}>{article.title}</Link>
          </Heading>
          <p className="article-meta">
            {article.dateTime && <time dateTime={article.dateTime}>{article.dateText}</time>}
            {article.category && (
              <>
                {" · "}
                <Link to={article.category.href}>{article.category.name}</Link>
              </>
            )}
          </p>
          {article.excerpt && <p>{article.excerpt}</p>}
        </li>
      ))}
    </ul>
  );
}
