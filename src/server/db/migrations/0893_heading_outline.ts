import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Rows read per statement while walking the articles' primary key.
const BATCH = 200;

// The heading tags the renderer writes: never attributes, and never a heading of the author's
// own HTML (raw HTML is off, so a typed "<h3>" is stored escaped, as text).
const HEADING_TAG = /<(\/?)h([2-6])>/g;

/**
 * Moves every heading of `html` up by the same number of levels so that its highest is an h2;
 * null when it already is (or has none).
 */
function outlinedFromH2(html: string): string | null {
  let highest = 7;
  for (const match of html.matchAll(HEADING_TAG)) highest = Math.min(highest, Number(match[2]));
  if (highest === 7 || highest === 2) return null;
  const up = highest - 2;
  return html.replace(HEADING_TAG, (_tag, close: string, level: string) => `<${close}h${Number(level) - up}>`);
}

/**
 * Body headings outline from h2 (decision 0893). The renderer before this made a `##` heading an
 * h3 (every level one below what was written), so an article of `##` sections, as Ghost's and
 * WordPress's <h2> are imported, went from the title's h1 straight to h3. This moves the stored
 * headings of such articles up, in the HTML only: excerpts and search text carry no headings.
 * Each update is one statement, so a row is never half-written; the articles' triggers move the
 * read version, so every process drops its cached pages.
 */
export const headingOutlineMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    let after = '';
    for (;;) {
      const rows: { id: string; html: string }[] = await db
        .selectFrom('articles')
        .select(['id', 'description_html as html'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      after = rows.at(-1)!.id;
      for (const row of rows) {
        const html = outlinedFromH2(row.html);
        if (html === null) continue;
        await db.updateTable('articles').set({ description_html: html }).where('id', '=', row.id).execute();
      }
    }
  },
  // The old outline skipped a level; nothing needs it back, and the next write of an article
  // stores whatever the code of that day makes.
  async down() {},
};
