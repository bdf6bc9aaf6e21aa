import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Rows read per statement while walking the articles' primary key.
const BATCH = 200;

// An absolute URL of an uploaded image, as the server wrote them before this migration:
// `{any http(s) origin}/images/{22-character id}/…`. Frozen copy of the shape in imageUrls.ts.
const ABSOLUTE_IMAGE_URL = /https?:\/\/[^/\s"'()<>[\]]+(\/images\/([A-Za-z0-9_-]{22})\/)/g;

/**
 * Uploaded images stored without an origin (decision 0300). Articles written before kept the
 * absolute URL of the PUBLIC_URL they were written under, in the cover field, the Markdown and
 * the rendered HTML, so a site moved to another address showed broken pictures. This rewrites
 * every URL naming an image this database holds, whatever its origin, to `/images/{id}/…`;
 * the server adds its current origin when it serves them. Pictures on other hosts stay as
 * they are (an id that is not in the images table is not ours).
 */
export const originFreeImagesMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    let after = '';
    for (;;) {
      const rows: { id: string; image: string; description: string; description_html: string }[] = await db
        .selectFrom('articles')
        .select(['id', 'image', 'description', 'description_html'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      after = rows.at(-1)!.id;

      const named = new Set<string>();
      for (const row of rows) {
        for (const text of [row.image, row.description, row.description_html]) {
          for (const match of text.matchAll(ABSOLUTE_IMAGE_URL)) named.add(match[2]!);
        }
      }
      if (named.size === 0) continue;
      const held = new Set(
        (
          await db
            .selectFrom('images')
            .select('id')
            .where('id', 'in', [...named])
            .execute()
        ).map((image: { id: string }) => image.id),
      );
      const originFree = (text: string) =>
        text.replace(ABSOLUTE_IMAGE_URL, (url: string, path: string, id: string) => (held.has(id) ? path : url));

      for (const row of rows) {
        const changed = {
          image: originFree(row.image),
          description: originFree(row.description),
          description_html: originFree(row.description_html),
        };
        if (
          changed.image === row.image &&
          changed.description === row.description &&
          changed.description_html === row.description_html
        ) {
          continue;
        }
        await db.updateTable('articles').set(changed).where('id', '=', row.id).execute();
      }
    }
  },
  // Going back would need the origin the rows were written under, which nothing recorded.
  async down() {},
};
