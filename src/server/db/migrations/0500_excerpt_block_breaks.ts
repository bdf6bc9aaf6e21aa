import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { excerpt0500 } from './frozen/0500_markdownExcerpt.ts';

// Rows read per statement while walking the articles' primary key.
const BATCH = 200;

/**
 * Excerpts that keep the breaks between blocks (issue 26.5, decision 0500). The excerpt is
 * stored with each article when it is written; articles written before ran their headings,
 * paragraphs and list items together ("Ingredients (for two) 4 small dab…"). This recomputes
 * every stored excerpt from the article's Markdown with the excerpt code frozen beside it.
 * Each row's update is one statement, so a row is never half-written.
 */
export const excerptBlockBreaksMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    let after = '';
    for (;;) {
      const rows: { id: string; description: string; excerpt: string }[] = await db
        .selectFrom('articles')
        .select(['id', 'description', 'excerpt'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      after = rows.at(-1)!.id;
      for (const row of rows) {
        const excerpt = excerpt0500(row.description);
        if (excerpt !== row.excerpt)
          await db.updateTable('articles').set({ excerpt }).where('id', '=', row.id).execute();
      }
    }
  },
  // The old excerpts ran blocks together; nothing needs them back, and the next write of an
  // article stores whatever the code of that day makes.
  async down() {},
};
