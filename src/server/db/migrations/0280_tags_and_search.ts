import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Tags and the full-text search index (DESIGN.md §8.5, docs/decisions/0280).
 *
 * - `tags`: one row per slug with the spelling first used; `article_tags` links articles to
 *   them in the author's order, with the article's date copied so a tag's list walks an index
 *   newest first, as the home list does.
 * - The search index holds each article's title, plain text, tag names and author name.
 *   SQLite: an FTS5 table (porter stemming over unicode61 with diacritics removed), keyed by
 *   `article_search_keys` (an explicit integer key: VACUUM may renumber the articles table's
 *   implicit rowids). PostgreSQL: `article_search` with a weighted `tsvector` under a GIN index;
 *   the text is folded (lower case, combining diacritics removed) by `inkwell_search_fold`,
 *   which needs no extension (unaccent may not be installable).
 * - Deleting an article removes its entry; renaming an author rewrites their entries (triggers,
 *   so the admin command and hand-run SQL keep the index true too).
 * - Existing articles are indexed here, from their stored HTML (plain text of it, frozen below).
 */

const BATCH = 200;

export const tagsAndSearchMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('tags')
      .addColumn('slug', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('article_tags')
      .addColumn('article_id', 'text', (column) => column.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('slug', 'text', (column) => column.notNull().references('tags.slug'))
      .addColumn('position', 'integer', (column) => column.notNull())
      .addColumn('date', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('article_tags_pk', ['article_id', 'slug'])
      .execute();
    await db.schema
      .createIndex('article_tags_slug_date_id')
      .on('article_tags')
      .columns(['slug', 'date desc', 'article_id desc'])
      .execute();

    if (postgres) {
      await sql
        .raw(
          `create function inkwell_search_fold(text) returns text language sql immutable parallel safe as $$
             select lower(regexp_replace(normalize($1, NFD), '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]', '', 'g'))
           $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create function inkwell_search_document(title text, body text, tags text, author text) returns tsvector
           language sql immutable parallel safe as $$
             select setweight(to_tsvector('english', inkwell_search_fold(title)), 'A')
                 || setweight(to_tsvector('english', inkwell_search_fold(tags)), 'B')
                 || setweight(to_tsvector('english', inkwell_search_fold(author)), 'C')
                 || setweight(to_tsvector('english', inkwell_search_fold(body)), 'D')
           $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create table article_search (
             article_id text primary key references articles(id) on delete cascade,
             body text not null,
             tags text not null,
             document tsvector not null
           )`,
        )
        .execute(db);
      await sql.raw('create index article_search_document on article_search using gin (document)').execute(db);
      await sql
        .raw(
          `create function inkwell_article_search_author() returns trigger language plpgsql as $$ begin
             update article_search s
                set document = inkwell_search_document(a.title, s.body, s.tags, coalesce(new.display_name, ''))
               from articles a
              where a.id = s.article_id and a.author_id = new.id;
             return null;
           end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger article_search_author after update of display_name on users for each row
           when (old.display_name is distinct from new.display_name) execute function inkwell_article_search_author()`,
        )
        .execute(db);
    } else {
      await sql
        .raw(
          `create virtual table article_search using fts5(title, body, tags, author,
             tokenize = 'porter unicode61 remove_diacritics 2')`,
        )
        .execute(db);
      await sql
        .raw('create table article_search_keys (search_rowid integer primary key, article_id text not null unique)')
        .execute(db);
      await sql
        .raw(
          `create trigger article_search_delete before delete on articles begin
             delete from article_search where rowid = (select search_rowid from article_search_keys where article_id = old.id);
             delete from article_search_keys where article_id = old.id;
           end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger article_search_author after update of display_name on users
           when old.display_name is not new.display_name begin
             update article_search set author = coalesce(new.display_name, '')
              where rowid in (select k.search_rowid from article_search_keys k join articles a on a.id = k.article_id
                               where a.author_id = new.id);
           end`,
        )
        .execute(db);
    }

    // Existing (and imported) articles, in id order, a batch at a time.
    let after = '';
    for (;;) {
      const rows: { id: string; title: string; html: string; author: string | null }[] = await db
        .selectFrom('articles')
        .innerJoin('users', 'users.id', 'articles.author_id')
        .select(['articles.id', 'articles.title', 'articles.description_html as html', 'users.display_name as author'])
        .where('articles.id', '>', after)
        .orderBy('articles.id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      for (const row of rows) {
        const body = textOfHtml(row.html);
        const author = row.author ?? '';
        if (postgres) {
          await sql`insert into article_search (article_id, body, tags, document)
                    values (${row.id}, ${body}, '', inkwell_search_document(${row.title}, ${body}, '', ${author}))`.execute(
            db,
          );
        } else {
          const key = await sql<{
            search_rowid: number;
          }>`insert into article_search_keys (article_id) values (${row.id})
                    returning search_rowid`.execute(db);
          await sql`insert into article_search (rowid, title, body, tags, author)
                    values (${key.rows[0]!.search_rowid}, ${row.title}, ${body}, '', ${author})`.execute(db);
        }
      }
      after = rows.at(-1)!.id;
    }
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql.raw('drop trigger article_search_author on users').execute(db);
      await sql.raw('drop function inkwell_article_search_author()').execute(db);
      await sql.raw('drop table article_search').execute(db);
      await sql.raw('drop function inkwell_search_document(text, text, text, text)').execute(db);
      await sql.raw('drop function inkwell_search_fold(text)').execute(db);
    } else {
      await sql.raw('drop trigger article_search_author').execute(db);
      await sql.raw('drop trigger article_search_delete').execute(db);
      await sql.raw('drop table article_search_keys').execute(db);
      await sql.raw('drop table article_search').execute(db);
    }
    await db.schema.dropTable('article_tags').execute();
    await db.schema.dropTable('tags').execute();
  },
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

/** The text of stored article HTML (markdown-it output): tags out, entities decoded, whitespace collapsed. */
function textOfHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}
