/** The images feature's tables, as Kysely sees them. Only this feature queries them. */
export interface ImagesTables {
  images: ImagesTable;
  image_files: ImageFilesTable;
  image_uses: ImageUsesTable;
  profile_images: ProfileImagesTable;
}

/** One upload. Its files (the image and its resized variants) are rows of image_files. */
export interface ImagesTable {
  /** 22 random base64url characters (128 bits): part of every URL of the image. */
  id: string;
  /** users.id of the uploader; the row goes with the account (user-deleting hook). */
  owner_id: string;
  /** The image at its URL, after orientation and the 2400 px cap. */
  width: number;
  height: number;
  /** Epoch milliseconds. An image no article uses is removed a day after this. */
  created_at: number;
}

/** One file served under /images/{image_id}/{name}; deleted with its image (ON DELETE CASCADE). */
export interface ImageFilesTable {
  image_id: string;
  /** The last URL segment: `{width}x{height}.jpg|png` for the image itself, `{width}w` for a variant. */
  name: string;
  content_type: string;
  /** Strong validator: a hash of `bytes`, which never change. */
  etag: string;
  bytes: Buffer;
}

/** An article showing an image (cover or body). Rows go with either side (ON DELETE CASCADE). */
export interface ImageUsesTable {
  image_id: string;
  article_id: string;
}

/** An account showing an upload as its profile picture (decision 0420): kept like an article's. */
export interface ProfileImagesTable {
  user_id: string;
  image_id: string;
}
