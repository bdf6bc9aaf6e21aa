/** A grey stand-in for a card while the list loads; same shape, so nothing jumps. */
export function ArticleCardSkeleton({ featured = false }: { featured?: boolean }) {
  // The bars' colour is the .skeleton-bar class (styles.css): CSS costs the home page no script.
  const bar = 'skeleton-bar';
  return (
    <div
      aria-hidden="true"
      className={`animate-pulse ${featured ? 'sm:grid sm:grid-cols-[7fr_5fr] sm:items-center sm:gap-8' : ''}`}
    >
      <div className={`aspect-[3/2] w-full rounded-lg ${bar}`} />
      <div className={`space-y-3 ${featured ? 'pt-4 sm:pt-0' : 'pt-4'}`}>
        <div className={`h-6 w-3/4 ${bar}`} />
        <div className={`h-6 w-1/2 ${bar}`} />
        <div className={`h-4 w-full ${bar}`} />
        <div className={`h-4 w-2/3 ${bar}`} />
        <div className={`h-3 w-1/3 ${bar}`} />
      </div>
    </div>
  );
}
