import type { UserRow } from '../identityTables.ts';

/**
 * How an account's `photoUrl` is stored: a picture uploaded to this server is kept without its
 * origin (decision 0300), so it survives a change of PUBLIC_URL, and is answered absolute. Any
 * other URL (the Firebase SDK's updateProfile takes any) is kept as it is.
 */
export interface PhotoUrls {
  toStored(url: string): string;
  toServed(url: string): string;
}

export const unchangedPhotoUrls: PhotoUrls = { toStored: (url) => url, toServed: (url) => url };

/** A users row as read from the table, with its picture's URL as it is answered. */
export function servedUser<Row extends Pick<UserRow, 'photo_url'>>(row: Row, photos: PhotoUrls): Row {
  return row.photo_url === null ? row : { ...row, photo_url: photos.toServed(row.photo_url) };
}

/** A users row (or part of one) as it is written. */
export function storedUser<Row extends Partial<Pick<UserRow, 'photo_url'>>>(row: Row, photos: PhotoUrls): Row {
  return typeof row.photo_url === 'string' ? { ...row, photo_url: photos.toStored(row.photo_url) } : row;
}
