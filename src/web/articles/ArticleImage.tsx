import { useState } from 'react';
import { parseUploadedImageUrl, uploadedImageSrcset } from '../../shared/imageUrls.ts';

interface ArticleImageProps {
  src: string;
  /** Eager for the one image a page is about; lazy for list cards. */
  loading?: 'lazy' | 'eager';
  /** How wide the frame is shown (the `sizes` attribute); the default fits the home page's card grid. */
  sizes?: string;
  className?: string;
}

/** One to three columns in the 64rem-wide main column (HomePage's grid). */
export const CARD_IMAGE_SIZES = '(min-width: 1024px) 310px, (min-width: 640px) 50vw, 100vw';

/** An uploaded picture's resized copies (`srcset`) and shape, from its URL; nothing for a picture from another host. */
export function responsiveImage(src: string, sizes: string) {
  const uploaded = parseUploadedImageUrl(src);
  return uploaded
    ? { srcSet: uploadedImageSrcset(uploaded), sizes, width: uploaded.width, height: uploaded.height }
    : undefined;
}

/** Marks an image that failed before the app took a server-rendered page over (React saw no error event). */
export const failedBeforeTakeOver = (image: HTMLImageElement | null) =>
  image !== null && image.complete && image.naturalWidth === 0 && image.currentSrc !== '';

/** The neutral picture shown instead of the browser's broken-image icon. */
export function ImagePlaceholder({ className = 'h-full' }: { className?: string }) {
  return (
    <div className={`flex w-full items-center justify-center ${className}`} data-testid="image-placeholder">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-10 w-10 text-slate-400 dark:text-slate-600">
        <path
          fill="currentColor"
          d="M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm1 2v9.6l4-4.1 3 3 2.5-2.5L19 17.5V7H5Zm10 1.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Z"
        />
      </svg>
    </div>
  );
}

/**
 * A card's picture, cropped to a 3:2 frame filled edge to edge, so cards line up in a grid and
 * the frame's shape is known before it loads (no layout shift). An image that fails shows a
 * neutral placeholder. The title next to it says what the article is, so the picture itself is
 * decorative. The article page shows its cover whole (ArticleCover).
 */
export function ArticleImage({ src, loading = 'lazy', sizes = CARD_IMAGE_SIZES, className = '' }: ArticleImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = failedSrc === src || src === '';
  return (
    <div className={`aspect-[3/2] w-full overflow-hidden bg-slate-200 dark:bg-slate-800 ${className}`}>
      {failed ? (
        <ImagePlaceholder />
      ) : (
        <img
          src={src}
          {...responsiveImage(src, sizes)}
          alt=""
          loading={loading}
          decoding="async"
          referrerPolicy="no-referrer"
          ref={(image) => {
            if (failedBeforeTakeOver(image)) setFailedSrc(src);
          }}
          onError={() => setFailedSrc(src)}
          className="h-full w-full object-cover"
        />
      )}
    </div>
  );
}
