import { useState } from 'react';
import { failedBeforeTakeOver, ImagePlaceholder, responsiveImage } from './ArticleImage.tsx';

const FRAME = 'bg-slate-200 dark:bg-slate-800';

/**
 * The article page's cover, whole (never cropped), as wide as the column allows and no taller
 * than 70vh or 40rem. In classes only: the page arrives rendered by the server, and the CSP
 * refuses style attributes in HTML. An uploaded picture's width and height attributes (from its
 * URL) give its box that shape before it loads (no layout shift); where the height bound cuts
 * the box shorter, the picture is fitted whole inside it (contain) rather than cropped. A cover
 * from elsewhere has no known shape until it loads, so it sits whole (letterboxed) in a 16:9
 * frame rather than move the text.
 */
export function ArticleCover({ src, sizes, className = '' }: { src: string; sizes: string; className?: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const responsive = responsiveImage(src, sizes);
  if (failedSrc === src || src === '') {
    return (
      <div className={`overflow-hidden ${className}`}>
        <ImagePlaceholder className={`aspect-video ${FRAME}`} />
      </div>
    );
  }
  return (
    <div
      className={`overflow-hidden ${responsive ? '' : `aspect-video max-h-[min(70vh,40rem)] w-full ${FRAME}`} ${className}`}
    >
      <img
        src={src}
        {...responsive}
        alt=""
        loading="eager"
        // The largest element of the page: fetched before the scripts, decoded at once.
        fetchPriority="high"
        referrerPolicy="no-referrer"
        ref={(image) => {
          if (failedBeforeTakeOver(image)) setFailedSrc(src);
        }}
        onError={() => setFailedSrc(src)}
        className={
          responsive
            ? 'mx-auto block h-auto max-h-[min(70vh,40rem)] max-w-full object-contain'
            : 'h-full w-full object-contain'
        }
      />
    </div>
  );
}
