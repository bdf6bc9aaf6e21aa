import { parseUploadedImageUrl, variantFileName, variantWidths } from '../../shared/imageUrls.ts';

// Hues for the initial's circle, each dark enough for white text (WCAG AA at these sizes).
const HUES = ['bg-blue-700', 'bg-teal-700', 'bg-violet-700', 'bg-rose-700', 'bg-amber-700', 'bg-emerald-700'];

const SIZES = { sm: 'h-6 w-6 text-xs', md: 'h-10 w-10 text-lg', lg: 'h-20 w-20 text-4xl sm:h-24 sm:w-24' } as const;

interface AuthorAvatarProps {
  authorId: string;
  authorName: string | null;
  photoUrl: string | null;
  size: keyof typeof SIZES;
}

/**
 * The author's profile picture, or their initial in a circle when they have none (decision
 * 0420). Decorative: the name is always written beside it. The hue follows the author's id,
 * so one author always has the same.
 */
export function AuthorAvatar({ authorId, authorName, photoUrl, size }: AuthorAvatarProps) {
  const shape = `${SIZES[size]} shrink-0 rounded-full`;
  // Accounts may carry any URL (the Firebase SDK's updateProfile); only web pictures are shown.
  if (photoUrl && /^https?:\/\//i.test(photoUrl)) {
    // An upload here has smaller copies: the narrowest is plenty for a circle this size.
    const uploaded = parseUploadedImageUrl(photoUrl);
    const src = uploaded ? `${uploaded.base}/${variantFileName(variantWidths(uploaded.width)[0]!)}` : photoUrl;
    return <img src={src} alt="" className={`${shape} bg-slate-200 object-cover dark:bg-slate-800`} />;
  }
  let hash = 0;
  for (const character of authorId) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return (
    <span
      aria-hidden="true"
      className={`${shape} inline-flex items-center justify-center font-serif font-bold text-white ${HUES[hash % HUES.length]}`}
    >
      {[...(authorName ?? '').trim()][0]?.toLocaleUpperCase() ?? ''}
    </span>
  );
}
