import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import yazl from 'yazl';
import type { DatabaseSchema } from '../../db/schema.ts';

/**
 * The whole site as a zip (DESIGN.md §9.5): `articles/<date>-<id>.md` (Markdown with front
 * matter: id, title, date, author, tags, status, cover, excerpt, and a scheduled one's publishAt), `images/<id>/<name>` (every
 * stored file of every upload), `images.json` (each upload's owner, size and files: what
 * `import-export` needs to store it again), `authors.json`, `comments.json`, `subscribers.csv`. Never a secret:
 * the columns read are named here one by one, and no password hash, key, code or token table
 * is read at all.
 *
 * Streamed: yazl writes one entry at a time, and each entry's bytes are read from the database
 * only when yazl comes to it (a lazy stream), so memory holds one article or one image file,
 * not the site. This reads the other features' tables directly, read only, as a backup does.
 */
export function siteExport(db: Kysely<DatabaseSchema>): NodeJS.ReadableStream {
  const zip = new yazl.ZipFile();
  void fill(zip, db).catch((error: unknown) => zip.outputStream.emit('error', error));
  return zip.outputStream;
}

const lazy = (produce: () => Promise<Buffer>) =>
  Readable.from(
    (async function* () {
      yield await produce();
    })(),
  );

async function fill(zip: yazl.ZipFile, db: Kysely<DatabaseSchema>): Promise<void> {
  const mtime = new Date();
  const articles = await db.selectFrom('articles').select(['id', 'date']).orderBy('date').orderBy('id').execute();
  for (const { id, date } of articles) {
    const name = `articles/${new Date(date).toISOString().slice(0, 10)}-${id}.md`;
    zip.addReadStream(
      lazy(() => articleFile(db, id)),
      name,
      { mtime },
    );
  }
  const files = await db.selectFrom('image_files').select(['image_id', 'name']).orderBy('image_id').execute();
  for (const file of files) {
    zip.addReadStream(
      lazy(async () => {
        const row = await db
          .selectFrom('image_files')
          .select('bytes')
          .where('image_id', '=', file.image_id)
          .where('name', '=', file.name)
          .executeTakeFirstOrThrow();
        return Buffer.from(row.bytes);
      }),
      `images/${file.image_id}/${file.name}`,
      // Already compressed: stored as is.
      { mtime, compress: false },
    );
  }
  zip.addReadStream(
    lazy(() => imagesFile(db)),
    'images.json',
    { mtime },
  );
  zip.addReadStream(
    lazy(() => authorsFile(db)),
    'authors.json',
    { mtime },
  );
  zip.addReadStream(
    lazy(() => commentsFile(db)),
    'comments.json',
    { mtime },
  );
  zip.addReadStream(
    lazy(() => subscribersFile(db)),
    'subscribers.csv',
    { mtime },
  );
  zip.end();
}

/** A YAML value that needs no YAML library to read back: JSON's spelling is valid YAML. */
const yaml = (value: unknown) => JSON.stringify(value);

async function articleFile(db: Kysely<DatabaseSchema>, id: string): Promise<Buffer> {
  const article = await db
    .selectFrom('articles')
    .innerJoin('users', 'users.id', 'articles.author_id')
    .select([
      'articles.id',
      'articles.title',
      'articles.image',
      'articles.description',
      'articles.date',
      'articles.status',
      'articles.excerpt',
      'articles.publish_at',
      'articles.author_id',
      'users.display_name',
    ])
    .where('articles.id', '=', id)
    .executeTakeFirstOrThrow();
  const tags = await db
    .selectFrom('article_tags')
    .innerJoin('tags', 'tags.slug', 'article_tags.slug')
    .select('tags.name')
    .where('article_tags.article_id', '=', id)
    .orderBy('article_tags.position')
    .execute();
  const front = [
    '---',
    `id: ${yaml(article.id)}`,
    `title: ${yaml(article.title)}`,
    `date: ${new Date(article.date).toISOString()}`,
    `author: ${yaml(article.author_id)}`,
    `authorName: ${yaml(article.display_name)}`,
    `tags: ${yaml(tags.map((tag) => tag.name))}`,
    // A scheduled article is stored as a draft with its time (decision 0851).
    `status: ${article.publish_at === null ? article.status : 'scheduled'}`,
    `cover: ${yaml(article.image)}`,
    `excerpt: ${yaml(article.excerpt)}`,
    ...(article.publish_at === null ? [] : [`publishAt: ${yaml(new Date(Number(article.publish_at)).toISOString())}`]),
    '---',
    '',
  ].join('\n');
  return Buffer.from(`${front}${article.description}\n`);
}

async function imagesFile(db: Kysely<DatabaseSchema>): Promise<Buffer> {
  const uploads = await db
    .selectFrom('images')
    .select(['id', 'owner_id', 'width', 'height', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const files = await db
    .selectFrom('image_files')
    .select(['image_id', 'name', 'content_type'])
    .orderBy('image_id')
    .orderBy('name')
    .execute();
  const images = uploads.map((image) => ({
    id: image.id,
    ownerId: image.owner_id,
    width: image.width,
    height: image.height,
    createdAt: new Date(image.created_at).toISOString(),
    files: files
      .filter((file) => file.image_id === image.id)
      .map((file) => ({ name: file.name, contentType: file.content_type })),
  }));
  return Buffer.from(`${JSON.stringify({ images }, null, 2)}\n`);
}

async function authorsFile(db: Kysely<DatabaseSchema>): Promise<Buffer> {
  const users = await db
    .selectFrom('users')
    .leftJoin('author_profiles', 'author_profiles.author_id', 'users.id')
    .select([
      'users.id',
      'users.email',
      'users.display_name',
      'users.photo_url',
      'users.role',
      'users.email_verified',
      'users.disabled',
      'users.created_at',
      'author_profiles.slug',
      'author_profiles.slug_name',
      'author_profiles.bio',
    ])
    .orderBy('users.created_at')
    .orderBy('users.id')
    .execute();
  const authors = users.map((user) => ({
    uid: user.id,
    email: user.email,
    displayName: user.display_name,
    photoUrl: user.photo_url,
    role: user.role,
    emailVerified: user.email_verified === 1,
    disabled: user.disabled === 1,
    createdAt: new Date(user.created_at).toISOString(),
    // The author page's address and text (authors feature): kept, so links to /author/SLUG still work.
    profile: user.slug === null ? null : { slug: user.slug, slugName: user.slug_name ?? '', bio: user.bio ?? '' },
  }));
  return Buffer.from(`${JSON.stringify({ authors }, null, 2)}\n`);
}

async function commentsFile(db: Kysely<DatabaseSchema>): Promise<Buffer> {
  const rows = await db
    .selectFrom('comments')
    .select([
      'id',
      'article_id',
      'parent_id',
      'author_uid',
      'remote_author_id',
      'remote_author_name',
      'remote_author_url',
      'remote_author_photo_url',
      'remote_object_id',
      'body',
      'status',
      'hidden_reason',
      'created_at',
      'edited_at',
    ])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const comments = rows.map((row) => ({
    id: row.id,
    articleId: row.article_id,
    parentId: row.parent_id,
    authorUid: row.author_uid,
    remoteAuthorId: row.remote_author_id,
    remoteAuthorName: row.remote_author_name,
    remoteAuthorUrl: row.remote_author_url,
    remoteAuthorPhotoUrl: row.remote_author_photo_url,
    remoteObjectId: row.remote_object_id,
    body: row.body,
    status: row.status,
    hiddenReason: row.hidden_reason,
    createdAt: new Date(row.created_at).toISOString(),
    editedAt: row.edited_at === null ? null : new Date(row.edited_at).toISOString(),
  }));
  return Buffer.from(`${JSON.stringify({ comments }, null, 2)}\n`);
}

const csvField = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

async function subscribersFile(db: Kysely<DatabaseSchema>): Promise<Buffer> {
  const rows = await db
    .selectFrom('newsletter_subscribers')
    .select(['email', 'status', 'created_at'])
    .orderBy('created_at')
    .orderBy('email')
    .execute();
  const lines = [
    'email,status,created_at',
    ...rows.map((row) => [row.email, row.status, new Date(row.created_at).toISOString()].map(csvField).join(',')),
  ];
  return Buffer.from(`${lines.join('\n')}\n`);
}
