import { createHash } from 'node:crypto';
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ImageFile } from './imageProcessing.ts';

/** A stored file as it is served. */
export interface StoredImageFile {
  contentType: string;
  etag: string;
  bytes: Buffer;
}

export interface NewImage {
  id: string;
  ownerId: string;
  width: number;
  height: number;
  createdAt: number;
  files: ImageFile[];
}

/** The owner's account no longer exists (deleted after the upload's token was checked). */
export class OwnerGoneError extends Error {
  override name = 'OwnerGoneError';
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

const etagOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url').slice(0, 27);

/**
 * An image's row, in the caller's transaction: with imageFileInto, how every way in (an upload,
 * an export brought back) stores an image, so its files get the same ETags whichever wrote them.
 */
export async function imageRowInto(trx: Transaction<DatabaseSchema>, image: Omit<NewImage, 'files'>): Promise<void> {
  await trx
    .insertInto('images')
    .values({
      id: image.id,
      owner_id: image.ownerId,
      width: image.width,
      height: image.height,
      created_at: image.createdAt,
    })
    .execute();
}

/** One file of an image, one statement (a statement holding every file would need them all encoded at once). */
export async function imageFileInto(
  trx: Transaction<DatabaseSchema>,
  imageId: string,
  file: { name: string; contentType: string; bytes: Buffer },
): Promise<void> {
  await trx
    .insertInto('image_files')
    .values({
      image_id: imageId,
      name: file.name,
      content_type: file.contentType,
      etag: etagOf(file.bytes),
      bytes: file.bytes,
    })
    .execute();
}

/** All SQL of the images feature. */
export function createImagesRepository(db: Kysely<DatabaseSchema>) {
  return {
    /** The image and all its files in one transaction: an image is served whole or not at all. */
    async insert(image: NewImage): Promise<void> {
      try {
        await db.transaction().execute(async (trx) => {
          await imageRowInto(trx, image);
          for (const file of image.files) await imageFileInto(trx, image.id, file);
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new OwnerGoneError();
        throw error;
      }
    },

    async findFile(imageId: string, name: string): Promise<StoredImageFile | undefined> {
      return db
        .selectFrom('image_files')
        .select(['content_type as contentType', 'etag', 'bytes'])
        .where('image_id', '=', imageId)
        .where('name', '=', name)
        .executeTakeFirst();
    },

    /**
     * Deletes the images created before `cutoff` that no article and no profile uses, in one statement: several
     * processes may run it at once, and each row goes once. Returns how many went.
     */
    async deleteUnusedCreatedBefore(cutoff: number): Promise<number> {
      const result = await db
        .deleteFrom('images')
        .where('created_at', '<', cutoff)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('image_uses').select('image_uses.image_id').whereRef('image_uses.image_id', '=', 'images.id'),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('profile_images')
                .select('profile_images.image_id')
                .whereRef('profile_images.image_id', '=', 'images.id'),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type ImagesRepository = ReturnType<typeof createImagesRepository>;

/**
 * An owner's account is going, inside its transaction: the images other people's articles show
 * pass to one of those articles' authors (decision 0210), the rest go (files and uses cascade).
 */
export async function deleteImagesByOwner(trx: Transaction<DatabaseSchema>, ownerId: string): Promise<void> {
  const userOfImage = (eb: ExpressionBuilder<DatabaseSchema, 'images'>) =>
    eb
      .selectFrom('image_uses')
      .innerJoin('articles', 'articles.id', 'image_uses.article_id')
      .whereRef('image_uses.image_id', '=', 'images.id')
      .where('articles.author_id', '<>', ownerId);
  await trx
    .updateTable('images')
    .set((eb) => ({ owner_id: userOfImage(eb).select((inner) => inner.fn.min('articles.author_id').as('author')) }))
    .where('owner_id', '=', ownerId)
    .where((eb) => eb.exists(userOfImage(eb).select('image_uses.image_id')))
    .execute();
  await trx.deleteFrom('images').where('owner_id', '=', ownerId).execute();
}

/**
 * Records which of `imageIds` the article shows, replacing what it showed before, inside the
 * transaction that writes the article. Ids of images that do not exist are ignored.
 */
export async function replaceImageUses(
  trx: Transaction<DatabaseSchema>,
  articleId: string,
  imageIds: string[],
): Promise<void> {
  await trx.deleteFrom('image_uses').where('article_id', '=', articleId).execute();
  if (imageIds.length === 0) return;
  await trx
    .insertInto('image_uses')
    .columns(['image_id', 'article_id'])
    .expression((eb) =>
      eb
        .selectFrom('images')
        .select((inner) => ['images.id', inner.val(articleId).as('article_id')])
        .where('images.id', 'in', imageIds),
    )
    .execute();
}

/**
 * Records the upload an account shows as its profile picture (or none), replacing the one before,
 * inside the transaction that changes the profile. An id that is not an image here is ignored.
 */
export async function replaceProfileImage(
  trx: Transaction<DatabaseSchema>,
  userId: string,
  imageId: string | undefined,
): Promise<void> {
  await trx.deleteFrom('profile_images').where('user_id', '=', userId).execute();
  if (imageId === undefined) return;
  await trx
    .insertInto('profile_images')
    .columns(['user_id', 'image_id'])
    .expression((eb) =>
      eb
        .selectFrom('images')
        .select((inner) => [inner.val(userId).as('user_id'), 'images.id'])
        .where('images.id', '=', imageId),
    )
    .execute();
}
