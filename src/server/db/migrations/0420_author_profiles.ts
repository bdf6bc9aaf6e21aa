import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Accounts read per statement while giving existing authors their slugs.
const BATCH = 500;
/** Frozen copies of src/shared/authorSlug.ts's rules as they were when this was written. */
const SLUG_MAX_LENGTH = 60;
const DIACRITICS = /[\u0300-\u036f]+/g;
function frozenSlug(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(DIACRITICS, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return [...slug].slice(0, SLUG_MAX_LENGTH).join('').replace(/-+$/, '') || 'author';
}

/**
 * Author profiles (decision 0420): a bio and a readable URL (`/author/{slug}`) per account,
 * every slug an account ever had (old ones redirect), and which upload is whose profile
 * picture (kept by the unused-image cleanup). Existing accounts get the slug of their name.
 */
export const authorProfilesMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('author_slugs')
      .addColumn('slug', 'text', (column) => column.primaryKey())
      .addColumn('author_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('author_slugs_author_id').on('author_slugs').column('author_id').execute();
    await db.schema
      .createTable('author_profiles')
      .addColumn('author_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('slug', 'text', (column) => column.notNull().unique())
      // The display name the slug was made from: another name gets another slug.
      .addColumn('slug_name', 'text', (column) => column.notNull())
      .addColumn('bio', 'text', (column) => column.notNull().defaultTo(''))
      .execute();
    await db.schema
      .createTable('profile_images')
      .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('image_id', 'text', (column) => column.notNull().references('images.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('profile_images_image_id').on('profile_images').column('image_id').execute();

    const taken = new Set<string>();
    const now = Date.now();
    let after = '';
    for (;;) {
      const users: { id: string; display_name: string | null }[] = await db
        .selectFrom('users')
        .select(['id', 'display_name'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (users.length === 0) return;
      after = users.at(-1)!.id;
      const rows = users.map((user) => {
        const name = user.display_name ?? '';
        const base = frozenSlug(name);
        let slug = base;
        for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
        taken.add(slug);
        return { author_id: user.id, slug, name };
      });
      await db
        .insertInto('author_slugs')
        .values(rows.map((row) => ({ slug: row.slug, author_id: row.author_id, created_at: now })))
        .execute();
      await db
        .insertInto('author_profiles')
        .values(rows.map((row) => ({ author_id: row.author_id, slug: row.slug, slug_name: row.name, bio: '' })))
        .execute();
    }
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('profile_images').execute();
    await db.schema.dropTable('author_profiles').execute();
    await db.schema.dropTable('author_slugs').execute();
  },
};
