// Hues for the monogram's circle, each dark enough for white text (WCAG AA at this size).
const HUES = ['bg-blue-700', 'bg-teal-700', 'bg-violet-700', 'bg-rose-700', 'bg-amber-700', 'bg-emerald-700'];

/**
 * The author's initial in a circle beside the article page's byline: accounts carry no picture
 * the API hands out, and a face-like mark helps a reader place the author. Decorative: the name
 * is written beside it. The hue follows the author's id, so one author always has the same.
 */
export function AuthorMonogram({ authorId, authorName }: { authorId: string; authorName: string }) {
  const initial = [...authorName.trim()][0]?.toLocaleUpperCase() ?? '';
  let hash = 0;
  for (const character of authorId) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return (
    <span
      aria-hidden="true"
      className={`inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full font-serif text-lg font-bold text-white ${HUES[hash % HUES.length]}`}
    >
      {initial}
    </span>
  );
}
