import { sql, type Kysely, type Transaction } from 'kysely';
import type { ArticleStatus } from '../../shared/articleSchema.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { tagNamesColumn, tagNamesFrom, type StoredTagNames } from './articleTags.ts';
import type { ImageOrigin } from './imageOrigin.ts';

/**
 * The articles' stored rows and what the read and the write queries share. All SQL of the
 * articles feature is in articleReadQueries.ts and articleWriteQueries.ts (articlesRepository.ts
 * puts them together). The reads outside its own tables: the author's current display name and
 * picture, from the columns of identity's users table declared here, and the author page's
 * slug (the authors feature's author_profiles).
 */
export type AuthorColumns = {
  users: { id: string; display_name: string | null; photo_url: string | null };
};

export interface ArticleRow {
  id: string;
  image: string;
  title: string;
  description: string;
  /** The description's rendered text, at most 300 characters. */
  excerpt: string;
  authorId: string;
  authorName: string | null;
  authorSlug: string | null;
  authorPhotoUrl: string | null;
  /** Epoch milliseconds. */
  date: number;
  /** Tag names in the author's order. */
  tags: string[];
  status: ArticleStatus;
  /** The last hide's reason and time (epoch ms); shown only while hidden. */
  moderationReason: string | null;
  moderatedAt: number | null;
  /** While scheduled: when it is published (epoch ms); else null. */
  publishAt: number | null;
}

/** One article with its rendered body: what the article page shows. */
export interface ArticleDetailRow extends ArticleRow {
  descriptionHtml: string;
  /** The author's own excerpt, or null when the excerpt is made from the text. */
  customExcerpt: string | null;
}

export interface ArticleFields {
  image: string;
  title: string;
  description: string;
  /** Tag names, one per slug (articleSchema.ts merges them). Absent on an update: the tags stay. */
  tags?: string[] | undefined;
  /**
   * The author's own excerpt (or an importer's: the old blog's); '' goes back to the one made
   * from the text. Absent on an update: the stored one stays.
   */
  excerpt?: string | undefined;
  /** false: no newsletter for this write's first publication (never stored). */
  newsletter?: boolean | undefined;
}

/** The author's account no longer exists (deleted after the caller's token was checked). */
export class AuthorGoneError extends Error {
  override name = 'AuthorGoneError';
}

/** An article as written: its fields plus what the server decides (id, author, date, status). */
export type NewArticle = ArticleFields & {
  id: string;
  authorId: string;
  date: number;
  status?: ArticleStatus;
  /** With status `scheduled`: when it is published, epoch ms. */
  publishAt?: number | undefined;
};

/** What a change of an existing article is decided on: the stored article before it. */
export interface CurrentArticle {
  id: string;
  authorId: string;
  title: string;
  status: ArticleStatus;
  date: number;
  everPublished: boolean;
  /** While scheduled: when it is published (epoch ms); else null. */
  publishAt: number | null;
  /** Whether the scheduled publication sends the newsletter. */
  publishNewsletter: boolean;
}

/** A change the caller decided on, given the current article; or a refusal, returned as is. */
export type ChangePlan = {
  /** `scheduled` needs `publishAt`; any other status clears the stored time. */
  status: ArticleStatus;
  publishAt?: number | undefined;
  /** A first publication's date when it is not the write's time (a scheduled one: its publishAt). */
  publishedAt?: number | undefined;
  /** Whether a first publication without fields sends the newsletter (a scheduled one: as chosen). */
  newsletter?: boolean | undefined;
  /** Set on hide; left as stored when absent. */
  moderation?: { reason: string; at: number };
};

/** Runs inside the change's transaction, after the write (the audit log's row). */
export type InTransaction = (trx: Transaction<DatabaseSchema>, before: CurrentArticle) => Promise<void>;

/**
 * Told of every article written through the API (created or changed), inside the writing
 * transaction: a failing listener undoes the write. `trx` is for the listener's own tables.
 */
/** An article's status before and after a write; null where it did not exist, or no longer does. */
export type ArticleChangedListener = (
  change: { id: string; before: ArticleStatus | null; after: ArticleStatus | null; edited: boolean },
  trx: Transaction<DatabaseSchema>,
) => Promise<void>;

/** Told inside the transaction of an article's first publication (DESIGN.md §9.3's sends). */
export type FirstPublishedListener = (
  article: { id: string; title: string; newsletter: boolean },
  trx: Transaction<DatabaseSchema>,
) => Promise<void>;

export type ArticleWrittenListener = (
  article: { id: string } & ArticleFields,
  trx: Transaction<DatabaseSchema>,
) => Promise<void>;

export function selectWithAuthors(db: Kysely<DatabaseSchema>) {
  return db
    .withTables<AuthorColumns>()
    .selectFrom('articles')
    .innerJoin('users', 'users.id', 'articles.author_id')
    .leftJoin('author_profiles', 'author_profiles.author_id', 'articles.author_id')
    .select([
      'articles.id',
      'articles.image',
      'articles.title',
      'articles.description',
      'articles.excerpt',
      'articles.author_id as authorId',
      'users.display_name as authorName',
      'author_profiles.slug as authorSlug',
      'users.photo_url as authorPhotoUrl',
      'articles.date',
      // A scheduled article is stored as a draft with its time (decision 0851).
      sql<ArticleStatus>`case when articles.publish_at is null then articles.status else 'scheduled' end`.as('status'),
      'articles.moderation_reason as moderationReason',
      'articles.moderated_at as moderatedAt',
      'articles.publish_at as publishAt',
    ])
    .select(tagNamesColumn(db).as('tags'));
}

/** A row as selectWithAuthors reads it: its tag names as the database aggregated them. */
type StoredRow = Omit<ArticleRow, 'tags'> & { tags: StoredTagNames | null };

/** A stored row as it is served: its tag names as a list, image paths under the current PUBLIC_URL. */
export function served<Row extends StoredRow>(row: Row, images: ImageOrigin): Omit<Row, 'tags'> & { tags: string[] } {
  const image = images.toServed(row.image);
  const authorPhotoUrl = row.authorPhotoUrl === null ? null : images.toServed(row.authorPhotoUrl);
  const description = images.toServed(row.description);
  const html = 'descriptionHtml' in row ? { descriptionHtml: images.toServed(row.descriptionHtml as string) } : {};
  return { ...row, image, description, authorPhotoUrl, ...html, tags: tagNamesFrom(row.tags) };
}
