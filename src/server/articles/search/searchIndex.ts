import { SqliteAdapter, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { isPublished } from '../publishedArticles.ts';
import type { SearchQuery } from './searchQuery.ts';

/**
 * The full-text index of articles (title, plain text, tag names, author name): written in the
 * article's own transaction, read by search. The tables and triggers are made by migration
 * 0280 (SQLite FTS5, PostgreSQL tsvector with a GIN index); deletes and author renames reach
 * the index through those triggers. User text only ever reaches the database as bound values
 * inside quoted FTS5 strings or plainto/phraseto_tsquery arguments: never as query syntax.
 */

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

const isSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * (Re)writes one article's entry from its stored title, tags and author, and its plain text.
 * Only published articles have an entry (publishedArticles.ts): so search needs no join to
 * filter, which at 100,000 matches cost more than the ranking (bench/README.md). Whatever
 * changes an article's visibility must call this again.
 */
export async function indexArticle(trx: Executor, articleId: string, text: string): Promise<void> {
  const tags = sql<string>`coalesce((select ${aggregateNames(trx)} from article_tags at join tags t on t.slug = at.slug
                                     where at.article_id = a.id), '')`;
  if (isSqlite(trx)) {
    await sql`insert into article_search_keys (article_id) values (${articleId}) on conflict (article_id) do nothing`.execute(
      trx,
    );
    const key = sql`(select search_rowid from article_search_keys where article_id = ${articleId})`;
    await sql`delete from article_search where rowid = ${key}`.execute(trx);
    await sql`insert into article_search (rowid, title, body, tags, author)
              select ${key}, a.title, ${text}, ${tags}, coalesce(u.display_name, '')
                from articles a join users u on u.id = a.author_id
               where a.id = ${articleId} and ${isPublished('a')}`.execute(trx);
  } else {
    // An article no longer published loses its entry.
    await sql`delete from article_search where article_id = ${articleId}`.execute(trx);
    await sql`insert into article_search (article_id, body, tags, document)
              select a.id, ${text}, ${tags}, inkwell_search_document(a.title, ${text}, ${tags}, coalesce(u.display_name, ''))
                from articles a join users u on u.id = a.author_id
               where a.id = ${articleId} and ${isPublished('a')}
`.execute(trx);
  }
}

function aggregateNames(db: Executor): RawBuilder<string> {
  return isSqlite(db) ? sql`group_concat(t.name, ' | ')` : sql`string_agg(t.name, ' | ' order by at.position)`;
}

export interface SearchHit {
  articleId: string;
  /** The article's plain text, for the snippet. */
  body: string;
}

/**
 * Published articles matching `query`, most relevant first: a match in the title outranks one
 * in tags or the author's name, which outranks one in the text; then newer first. `query`
 * must have at least one included term.
 */
export async function searchIndex(
  db: Executor,
  query: SearchQuery,
  limit: number,
  offset: number,
): Promise<SearchHit[]> {
  if (query.include.length === 0) return [];
  if (isSqlite(db)) {
    // Ranked on the index alone (rowid and score: no text carried through the sort), then the
    // page's few rows fetched with their text. bm25 weights: title, body, tags, author.
    const result = await sql<SearchHit>`
      with ranked as (
        select rowid as search_rowid, bm25(article_search, 100.0, 1.0, 10.0, 5.0) as score
          from article_search
         where article_search match ${fts5Expression(query)}
         order by score, rowid desc
         limit ${limit} offset ${offset})
      select k.article_id as "articleId", s.body as body
        from ranked
        join article_search_keys k on k.search_rowid = ranked.search_rowid
        join article_search s on s.rowid = ranked.search_rowid
       order by ranked.score, ranked.search_rowid desc`.execute(db);
    return result.rows;
  }
  const tsquery = tsqueryOf(query);
  const result = await sql<SearchHit>`
    select s.article_id as "articleId", s.body as body
      from article_search s
     where s.document @@ ${tsquery}
     order by (ts_filter(s.document, '{a}') @@ ${tsquery}) desc,
              ts_rank(s.document, ${tsquery}) desc, s.article_id desc
     limit ${limit} offset ${offset}`.execute(db);
  return result.rows;
}

/**
 * An FTS5 expression made only of double-quoted strings (the tokenizer splits and stems what
 * is inside them), AND, OR, NOT and parentheses. The words come from parseSearchQuery, so
 * they hold letters, digits and marks only; quotes are doubled all the same.
 */
export function fts5Expression(query: SearchQuery): string {
  const quoted = (words: string[]) => `"${words.join(' ').replaceAll('"', '""')}"`;
  const included = query.include.map(quoted).join(' AND ');
  if (query.exclude.length === 0) return included;
  return `(${included}) NOT (${query.exclude.map(quoted).join(' OR ')})`;
}

/** A tsquery built by the database from each term as plain text: && of terms, !! before exclusions. */
function tsqueryOf(query: SearchQuery): RawBuilder<unknown> {
  const term = (words: string[]) =>
    words.length === 1
      ? sql`plainto_tsquery('english', inkwell_search_fold(${words[0]}))`
      : sql`phraseto_tsquery('english', inkwell_search_fold(${words.join(' ')}))`;
  const parts = [...query.include.map(term), ...query.exclude.map((words) => sql`!!${term(words)}`)];
  return sql`(${sql.join(parts, sql` && `)})`;
}
