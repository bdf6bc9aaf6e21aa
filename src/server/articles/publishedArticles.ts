import { sql, type RawBuilder } from 'kysely';

/**
 * THE visibility rule of everything readers find by topic or by text (search, tag pages,
 * tag counts): only published articles. Every article is published today; when articles get
 * a status (moderation), this is the one place that says which ones readers may find.
 *
 * The search index holds published articles only (search/searchIndex.ts indexArticle uses this
 * when writing an entry), so a change of visibility must rewrite the article's entry.
 *
 * `articlesAlias` names the articles table in the caller's query.
 */
export function isPublished(articlesAlias = 'articles'): RawBuilder<boolean> {
  // Nothing to filter yet; the alias is checked so a caller cannot pass SQL here.
  if (!/^[a-z_]+$/.test(articlesAlias)) throw new Error('isPublished: not a table alias');
  return sql<boolean>`1 = 1`;
}
