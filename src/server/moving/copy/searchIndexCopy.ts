import { sql, type Kysely } from 'kysely';
import { TableChecksum } from './tableChecksum.ts';
import type { ValueKind } from './targetSchema.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the copy works below the typed schema
type AnyDb = Kysely<any>;

const BATCH = 200;
const COLUMNS = ['article_id', 'body', 'tags'];
const KINDS = new Map<string, ValueKind>(COLUMNS.map((column) => [column, 'text']));

/**
 * The one store whose shape differs by dialect (migration 0280): SQLite keeps the search index
 * in an FTS5 table keyed through `article_search_keys`; PostgreSQL in `article_search` with a
 * weighted tsvector. Each entry is carried over as its text (title, body, tags, author) and
 * PostgreSQL's document is computed from it by the migration's own function, so a search
 * finds on PostgreSQL what it found on SQLite.
 */
export const searchIndexCopy = {
  sourceTables: ['article_search_keys'],
  targetTable: 'article_search',

  async applies(source: AnyDb, targetTables: Set<string>): Promise<boolean> {
    if (!targetTables.has(this.targetTable)) return false;
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from sqlite_master where name in ('article_search', 'article_search_keys')`.execute(source);
    return Number(rows[0]?.n) === 2;
  },

  async count(source: AnyDb): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*) as n from article_search_keys`.execute(source);
    return Number(rows[0]?.n ?? 0);
  },

  /** Copies every entry and returns the source side's checksum over (article_id, body, tags). */
  async copy(source: AnyDb, target: AnyDb, progress: (done: number) => void): Promise<string> {
    const checksum = new TableChecksum(COLUMNS, KINDS);
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const { rows } = await sql<{
        key: number;
        article_id: string;
        title: string | null;
        body: string | null;
        tags: string | null;
        author: string | null;
      }>`select k.search_rowid as key, k.article_id, s.title, s.body, s.tags, s.author
           from article_search_keys k join article_search s on s.rowid = k.search_rowid
          where k.search_rowid > ${after} order by k.search_rowid limit ${BATCH}`.execute(source);
      if (rows.length === 0) break;
      const values = rows.map((row) => {
        const body = row.body ?? '';
        const tags = row.tags ?? '';
        checksum.add({ article_id: row.article_id, body, tags });
        return sql`(${row.article_id}, ${body}, ${tags},
                    inkwell_search_document(${row.title ?? ''}, ${body}, ${tags}, ${row.author ?? ''}))`;
      });
      await sql`insert into article_search (article_id, body, tags, document) values ${sql.join(values)}`.execute(
        target,
      );
      after = rows.at(-1)!.key;
      progress(checksum.rows);
    }
    return checksum.value;
  },

  async targetChecksum(target: AnyDb): Promise<string> {
    const checksum = new TableChecksum(COLUMNS, KINDS);
    let after = '';
    for (;;) {
      const { rows } = await sql<{ article_id: string; body: string; tags: string }>`
        select article_id, body, tags from article_search
         where article_id > ${after} collate "C" order by article_id collate "C" limit ${BATCH}`.execute(target);
      if (rows.length === 0) break;
      for (const row of rows) checksum.add(row);
      after = rows.at(-1)!.article_id;
    }
    return checksum.value;
  },
};
