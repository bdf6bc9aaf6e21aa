import { useState, type CSSProperties } from 'react';
import { parseUploadedImageUrl, uploadedImageSrcset } from '../../shared/imageUrls.ts';

interface ArticleImageProps {
  src: string;
  /** Eager for the one image a page is about; lazy for list cards. */
  loading?: 'lazy' | 'eager';
  /** How wide the frame is shown (the `sizes` attribute); the default fits the home page's card grid. */
  sizes?: string;
  /**
   * crop: a 3:2 frame filled edge to edge (cards line up in a grid).
   * whole: the picture at its own shape, never cropped, no taller than `maxHeight` (the article page).
   */
  fit?: 'crop' | 'whole';
  /** CSS length bounding the height of a `whole` picture. */
  maxHeight?: string;
  className?: string;
}

/** One to three columns in the 64rem-wide main column (HomePage's grid). */
export const CARD_IMAGE_SIZES = '(min-width: 1024px) 310px, (min-width: 640px) 50vw, 100vw';

/**
 * The article's picture in a frame whose shape is known before it loads (no layout shift). An
 * image that fails shows a neutral placeholder instead of the browser's broken-image icon. The
 * title next to it says what the article is, so the picture itself is decorative.
 */
export function ArticleImage({
  src,
  loading = 'lazy',
  sizes = CARD_IMAGE_SIZES,
  fit = 'crop',
  maxHeight = '70vh',
  className = '',
}: ArticleImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = failedSrc === src || src === '';
  // An image uploaded here names its size and has resized copies; a cover from another host is used as it is.
  const uploaded = parseUploadedImageUrl(src);
  const responsive = uploaded
    ? { srcSet: uploadedImageSrcset(uploaded), sizes, width: uploaded.width, height: uploaded.height }
    : {};

  let frameClass = 'aspect-[3/2] w-full';
  let frameStyle: CSSProperties | undefined;
  let imageClass = 'h-full w-full object-cover';
  if (fit === 'whole') {
    // An uploaded picture's shape is in its URL: the frame takes exactly that shape, as wide as
    // the column allows and no taller than maxHeight. A cover from elsewhere has no known shape
    // until it loads, so it sits whole (letterboxed) in a 16:9 frame rather than move the text.
    const ratio = uploaded ? uploaded.width / uploaded.height : 16 / 9;
    frameClass = 'mx-auto';
    frameStyle = { aspectRatio: String(ratio), width: `min(100%, calc(${maxHeight} * ${ratio.toFixed(4)}))` };
    imageClass = 'h-full w-full object-contain';
  }

  return (
    <div
      className={`overflow-hidden bg-slate-200 dark:bg-slate-800 ${frameClass} ${className}`}
      style={frameStyle}
      data-fit={fit}
    >
      {failed ? (
        <div className="flex h-full w-full items-center justify-center" data-testid="image-placeholder">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-10 w-10 text-slate-400 dark:text-slate-600">
            <path
              fill="currentColor"
              d="M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm1 2v9.6l4-4.1 3 3 2.5-2.5L19 17.5V7H5Zm10 1.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Z"
            />
          </svg>
        </div>
      ) : (
        <img
          src={src}
          {...responsive}
          alt=""
          loading={loading}
          decoding="async"
          referrerPolicy="no-referrer"
          onError={() => setFailedSrc(src)}
          className={imageClass}
        />
      )}
    </div>
  );
}
