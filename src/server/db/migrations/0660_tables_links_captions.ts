import { sql, type Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';
import type { Migration } from 'kysely/migration';
import { renderMarkdown0660 } from './frozen/0660_renderMarkdown.ts';

// Rows read per statement while walking the articles' primary key.
const BATCH = 200;

// What the renderer of 0660 reads differently from the one before it: a table row (a line with
// a pipe), a link or image to a path of this site (inline `](/…`, `](#…` or a reference
// definition `[x]: /…`; not this server's own pictures, `/images/…`, which are stored
// origin-free but were rendered from their absolute URLs), or a picture with a title (a caption now). Other articles render byte
// for byte as before and are left alone.
const CHANGED_BY_0660 =
  /\||\]\(\s*<?(?:#|\/(?!images\/))|^\s{0,3}\[[^\]]+\]:\s*<?(?:#|\/(?!images\/))|!\[[^\]]*\]\([^)\n]*\s["'(]/m;

// Stored Markdown names this server's pictures origin-free (decision 0300), but the renderer
// gives srcsets only to absolute URLs of its own origin: they are rendered under a stand-in
// origin, which is then taken out again, as the server does with PUBLIC_URL on every write.
const STAND_IN = 'https://inkwell-migration.invalid';
const OWN_IMAGE_IN_MARKDOWN = /(\]\(\s*<?|^\s{0,3}\[[^\]]+\]:\s*<?)\/images\/([A-Za-z0-9_-]{22})\//gm;

/**
 * GFM tables, links to the site's own paths and captions (issue 39.3 and 39's writer's desk,
 * decision 0660). Articles written before showed a table as rows of pipes and dropped
 * `[Atom feed](/feed.xml)` to its text, in the page, the card's excerpt, the feed and search. This renders those articles again with
 * the renderer frozen beside it: HTML, excerpt and, for published ones, the search text. Each
 * update is one statement, so a row is never half-written; the articles' triggers move the
 * read version, so every process drops its cached pages.
 */
export const tablesLinksCaptionsMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    let after = '';
    for (;;) {
      const rows: { id: string; description: string; html: string; excerpt: string }[] = await db
        .selectFrom('articles')
        .select(['id', 'description', 'description_html as html', 'excerpt'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      after = rows.at(-1)!.id;
      for (const row of rows) {
        if (!CHANGED_BY_0660.test(row.description)) continue;
        const absolute = row.description.replace(OWN_IMAGE_IN_MARKDOWN, `$1${STAND_IN}/images/$2/`);
        const rendered = renderMarkdown0660(absolute, { ownImageOrigin: STAND_IN });
        const html = rendered.html.replaceAll(`${STAND_IN}/images/`, '/images/');
        if (html === row.html && rendered.excerpt === row.excerpt) continue;
        await db
          .updateTable('articles')
          .set({ description_html: html, excerpt: rendered.excerpt })
          .where('id', '=', row.id)
          .execute();
        if (postgres) {
          await sql`update article_search s
                       set body = ${rendered.text},
                           document = inkwell_search_document(a.title, ${rendered.text}, s.tags, coalesce(u.display_name, ''))
                      from articles a join users u on u.id = a.author_id
                     where s.article_id = a.id and a.id = ${row.id}`.execute(db);
        } else {
          await sql`update article_search set body = ${rendered.text}
                     where rowid = (select search_rowid from article_search_keys where article_id = ${row.id})`.execute(
            db,
          );
        }
      }
    }
  },
  // The old rendering dropped what this one shows; nothing needs it back, and the next write of
  // an article stores whatever the code of that day makes.
  async down() {},
};
