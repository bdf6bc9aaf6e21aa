import { ApiError } from './apiError.ts';
import { callApi, type TokenSource } from './callApi.ts';

/** The upload types the server takes (docs/product.md, Rules). */
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;

export interface UploadedImage {
  /** Absolute; a valid article image. */
  url: string;
  width: number;
  height: number;
}

/** POST /api/images with the file's bytes. Failures are ApiError with the HTTP status. */
export async function uploadImage(file: Blob, token: TokenSource): Promise<UploadedImage> {
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) {
    throw new ApiError(`Not an accepted image type: ${file.type || 'unknown'}`, 415);
  }
  try {
    return await callApi<UploadedImage>('POST', '/images', { upload: file, token });
  } catch (error) {
    console.error('Images API: POST /images failed', error);
    throw error;
  }
}
