import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { createArticlesRepository } from '../../articles/articlesRepository.ts';
import { imageOrigin } from '../../articles/imageOrigin.ts';
import { renderCommentMarkdown } from '../../comments/commentMarkdown.ts';
import type { Database } from '../../db/database.ts';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { Identity } from '../../identity/createIdentity.ts';
import type { Images } from '../../images/createImages.ts';
import { imageFileInto, imageRowInto } from '../../images/imagesRepository.ts';
import type { Progress } from '../importing/importPosts.ts';
import type { OpenedArchive } from './exportArchive.ts';
import type { ExportContents } from './exportContents.ts';

const WRITE_BATCH = 100;

export interface RestoreDeps {
  database: Database;
  accounts: Pick<Identity['admin'], 'importAccounts'>;
  images: Pick<Images, 'recordUses' | 'recordProfilePicture'>;
  publicUrl: string;
  progress: (what: string) => Progress;
}

export interface RestoreSummary {
  text: string;
  json: { accounts: number; articles: number; images: number; comments: number; subscribers: number };
}

/** A site is empty when nothing an export carries is in it yet: no account, article, upload, comment or subscriber. */
export async function isEmptySite(database: Database): Promise<boolean> {
  const { db } = database;
  for (const table of ['users', 'articles', 'images', 'comments', 'newsletter_subscribers'] as const) {
    const row = await db.selectFrom(table).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(row.n) > 0) return false;
  }
  return true;
}

// The images feature's validator of a stored file (imagesRepository.ts): a hash of its bytes.

/**
 * Writes a checked export (exportContents.ts) into an empty site, every id kept (nothing is
 * there to clash with, so no URL in a text or cover needs rewriting, and links to the old
 * site's articles still lead to them under the new PUBLIC_URL). Accounts are made first
 * through identity's import (without passwords: they sign in through "Forgot password?"),
 * then everything else in one transaction; if that fails, the accounts just made are removed
 * again, so a failed import leaves the site as empty as it was.
 */
export async function restoreSite(
  contents: ExportContents,
  archive: OpenedArchive,
  deps: RestoreDeps,
): Promise<RestoreSummary> {
  const { db } = deps.database;
  const byRole = Map.groupBy(contents.authors, (author) => author.role);
  const made: string[] = [];
  for (const [role, authors] of byRole) {
    const result = await deps.accounts.importAccounts(
      authors.map((author) => ({
        uid: author.uid,
        email: author.email.toLowerCase(),
        firebasePassword: null,
        displayName: author.displayName,
        photoUrl: author.photoUrl,
        emailVerified: author.emailVerified,
        disabled: author.disabled,
        createdAt: author.createdAt,
        lastLoginAt: null,
        providers: [],
      })),
      { hashParameters: null, role, progress: () => {} },
    );
    made.push(...authors.map((author) => author.uid));
    if (result.skipped.length > 0) {
      await removeAccounts(deps.database, made);
      throw new Error(`an account could not be made: ${result.skipped[0]!.reason}`);
    }
  }
  try {
    await db.transaction().execute((trx) => writeSite(trx, contents, archive, deps));
  } catch (error) {
    await removeAccounts(deps.database, made);
    throw error;
  }
  const json = {
    accounts: contents.authors.length,
    articles: contents.articles.length,
    images: contents.images.length,
    comments: contents.comments.length,
    subscribers: contents.subscribers.length,
  };
  return {
    text:
      `Imported the export: ${json.articles} articles, ${json.images} images, ${json.comments} comments, ` +
      `${json.subscribers} subscribers.\n` +
      `Accounts: ${json.accounts} made without a password (they sign in through "Forgot password?").`,
    json,
  };
}

async function writeSite(
  trx: Transaction<DatabaseSchema>,
  contents: ExportContents,
  archive: OpenedArchive,
  deps: RestoreDeps,
): Promise<void> {
  const storing = deps.progress('Storing images');
  for (const [index, image] of contents.images.entries()) {
    storing(index + 1, contents.images.length);
    await imageRowInto(trx, image);
    // One file at a time, read from the zip when written: memory holds one image file.
    for (const file of image.files) {
      const bytes = await archive.readImage(`images/${image.id}/${file.name}`);
      await imageFileInto(trx, image.id, { name: file.name, contentType: file.contentType, bytes });
    }
  }
  for (const author of contents.authors) {
    await deps.images.recordProfilePicture(author.uid, author.photoUrl, trx);
    if (author.profile === null) continue;
    // The authors feature's rows as it writes them (authorsRepository.ts): the current slug, claimed.
    const { slug, slugName, bio } = author.profile;
    await trx
      .insertInto('author_slugs')
      .values({ slug, author_id: author.uid, created_at: author.createdAt })
      .execute();
    await trx.insertInto('author_profiles').values({ author_id: author.uid, slug, slug_name: slugName, bio }).execute();
  }

  const writing = deps.progress('Writing articles');
  const origin = imageOrigin(deps.publicUrl);
  const repository = createArticlesRepository(trx, [], origin);
  for (let start = 0; start < contents.articles.length; start += WRITE_BATCH) {
    const batch = contents.articles.slice(start, start + WRITE_BATCH);
    await repository.insertBatch(
      batch.map((article) => ({
        id: article.id,
        authorId: article.author,
        date: article.date,
        status: article.status,
        // The export spells own images origin-free, as stored; made absolute again, the
        // renderer knows them as this site's and gives them their variants' srcset.
        image: origin.toServed(article.cover),
        title: article.title,
        description: origin.toServed(article.markdown),
        tags: article.tags,
        excerpt: article.excerpt,
        publishAt: article.publishAt,
      })),
    );
    for (const article of batch) await deps.images.recordUses(article.id, [article.cover, article.markdown], trx);
    writing(Math.min(start + WRITE_BATCH, contents.articles.length), contents.articles.length);
  }

  for (const comment of contents.comments) {
    await trx
      .insertInto('comments')
      .values({
        id: comment.id,
        article_id: comment.articleId,
        parent_id: comment.parentId,
        author_uid: comment.authorUid,
        remote_author_id: comment.remoteAuthorId,
        remote_author_name: comment.remoteAuthorName,
        remote_author_url: comment.remoteAuthorUrl,
        remote_author_photo_url: comment.remoteAuthorPhotoUrl,
        remote_object_id: comment.remoteObjectId,
        body: comment.body,
        body_html: comment.status === 'deleted' ? '' : renderCommentMarkdown(comment.body),
        status: comment.status,
        hidden_reason: comment.hiddenReason,
        created_at: comment.createdAt,
        edited_at: comment.editedAt,
      })
      .execute();
  }

  for (const subscriber of contents.subscribers) {
    await trx
      .insertInto('newsletter_subscribers')
      .values({
        id: randomBytes(16).toString('base64url').slice(0, 22),
        email: subscriber.email,
        status: subscriber.status,
        uid: null,
        confirm_token_hash: null,
        confirm_expires_at: null,
        created_at: subscriber.createdAt,
        confirmed_at: subscriber.status === 'confirmed' ? subscriber.createdAt : null,
      })
      .execute();
  }
}

/** Undoes the accounts an import made (nothing refers to them: the transaction that would have did not commit). */
async function removeAccounts(database: Database, uids: string[]): Promise<void> {
  for (let start = 0; start < uids.length; start += WRITE_BATCH)
    await database.db
      .deleteFrom('users')
      .where('id', 'in', uids.slice(start, start + WRITE_BATCH))
      .execute();
}
