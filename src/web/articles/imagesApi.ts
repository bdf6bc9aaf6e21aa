import type { TokenSource } from './articlesApi.ts';
import { ArticlesApiError, errorFromResponse } from './articlesApiError.ts';

/** The upload types the server takes (docs/product.md, Rules). */
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;

export interface UploadedImage {
  /** Absolute; a valid article image. */
  url: string;
  width: number;
  height: number;
}

/** POST /api/images with the file's bytes. Failures are ArticlesApiError with the HTTP status. */
export async function uploadImage(file: Blob, token: TokenSource): Promise<UploadedImage> {
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) {
    throw new ArticlesApiError(`Not an accepted image type: ${file.type || 'unknown'}`, 415);
  }
  const idToken = await token();
  if (!idToken) throw new ArticlesApiError('Not signed in', 401);
  let response: Response;
  try {
    response = await fetch('/api/images', {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'content-type': file.type, accept: 'application/json' },
      body: file,
    });
  } catch (cause) {
    throw new ArticlesApiError(cause instanceof Error ? cause.message : 'Network failure', 0);
  }
  if (!response.ok) {
    const error = await errorFromResponse(response);
    console.error('Images API: POST /images failed', error);
    throw error;
  }
  return (await response.json()) as UploadedImage;
}
