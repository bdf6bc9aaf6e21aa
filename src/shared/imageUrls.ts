/**
 * The URLs of uploaded images (docs/architecture.md, articles API), shared by the server that makes them and the web
 * app that builds `srcset` from them. An image's URL names its size,
 * `{origin}/images/{id}/{width}x{height}.jpg|png`, so a card knows the picture's shape and its
 * resized copies (`{origin}/images/{id}/{w}w`) from the URL alone (decision 0041).
 */

/** Long side of the stored image: larger uploads are scaled down to it. */
export const IMAGE_MAX_SIDE = 2400;

/** Widths of the resized copies made of every upload narrower than it, besides its own width. */
export const IMAGE_VARIANT_WIDTHS = [480, 960, 1600] as const;

export interface UploadedImageUrl {
  /** `{origin}/images/{id}`: the variants' URLs start with it. */
  base: string;
  id: string;
  width: number;
  height: number;
}

const UPLOADED_PATH = /^\/images\/([A-Za-z0-9_-]{22})\/([1-9][0-9]{0,3})x([1-9][0-9]{0,3})\.(?:jpg|png)$/;

/** The last URL segment of the image itself. */
export function imageFileName(width: number, height: number, extension: 'jpg' | 'png'): string {
  return `${width}x${height}.${extension}`;
}

/** The last URL segment of the copy `width` pixels wide. */
export function variantFileName(width: number): string {
  return `${width}w`;
}

/** The widths of an image's copies, narrowest first; the last is the image's own width. */
export function variantWidths(width: number): number[] {
  return [...IMAGE_VARIANT_WIDTHS.filter((candidate) => candidate < width), width];
}

/** What an uploaded image's URL says about it, or null for any other URL (covers from other hosts). */
export function parseUploadedImageUrl(url: string): UploadedImageUrl | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.search !== '' || parsed.hash !== '') return null;
  const match = UPLOADED_PATH.exec(parsed.pathname);
  if (!match) return null;
  const width = Number(match[2]);
  const height = Number(match[3]);
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) return null;
  return { base: `${parsed.origin}/images/${match[1]}`, id: match[1]!, width, height };
}

/** `srcset` for an uploaded image: every copy with its real width (`w` descriptors). */
export function uploadedImageSrcset(image: UploadedImageUrl): string {
  return variantWidths(image.width)
    .map((width) => `${image.base}/${variantFileName(width)} ${width}w`)
    .join(', ');
}
