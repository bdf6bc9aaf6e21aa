import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { COMMENTS_ELEMENT_ID } from '../served/servedComments.ts';
import { useServedPage } from '../served/servedPage.ts';

// The comments' code (list, form, Reply, Edit, Delete, Report, Hide, Approve): fetched when the
// comments come near the screen, never with the article (its JavaScript has a budget).
const CommentsSection = lazy(() =>
  import('./CommentsSection.tsx').then((module) => ({ default: module.CommentsSection })),
);

// Only the first article screen after a load finds the server's markup in the page.
let firstRender = true;

/**
 * Where the comments go under an article (DESIGN.md §9.2). A page the server rendered carries
 * them as markup, readable without JavaScript: the slot keeps that markup as it is (hydration
 * takes it over untouched) until the comments' code is here, which then renders the same list
 * with what the reader may do. Elsewhere (a screen reached in the app) the code loads at once.
 */
export function CommentsSlot({ articleId, articleAuthorId }: { articleId: string; articleAuthorId: string }) {
  // The server's markup ('' when COMMENTS=off); undefined on a screen reached in the app, whose
  // page the server rendered for something else (the slot names the article it was made for).
  const page = useServedPage();
  const [served] = useState<string | undefined>(() => {
    if (typeof document === 'undefined') return page.commentsHtml ?? '';
    if (!firstRender || !page.screen) return undefined;
    firstRender = false;
    const element = document.getElementById(COMMENTS_ELEMENT_ID);
    return element?.dataset.article === articleId ? element.innerHTML : undefined;
  });
  const [wanted, setWanted] = useState(served === undefined);
  const slot = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (wanted || served === '' || !slot.current) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setWanted(true);
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(slot.current);
    return () => observer.disconnect();
  }, [wanted, served]);
  const markup =
    served === undefined ? null : (
      <div
        ref={slot}
        id={COMMENTS_ELEMENT_ID}
        data-article={articleId}
        dangerouslySetInnerHTML={{ __html: served }}
        suppressHydrationWarning
      />
    );
  if (!wanted) return markup;
  return (
    <Suspense fallback={markup}>
      <CommentsSection articleId={articleId} articleAuthorId={articleAuthorId} servedHtml={served ?? null} />
    </Suspense>
  );
}
