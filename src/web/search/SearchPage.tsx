import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SEARCH_QUERY_MAX_LENGTH } from '../../shared/searchLimits.ts';
import type { SearchResult } from '../../shared/searchSchema.ts';
import { paths } from '../../shared/routes.ts';
import { ArticleByline } from '../articles/ArticleByline.tsx';
import { EmptyList } from '../components/EmptyList.tsx';
import { LoadFailure } from '../components/LoadFailure.tsx';
import { TagLinks } from '../articles/TagLinks.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { searchArticles } from '../api/searchApi.ts';
import type { ServedScreen } from '../../shared/servedScreen.ts';
import { useServedPage } from '../served/servedPage.ts';

type SearchState =
  | { status: 'loading' | 'failed'; results: SearchResult[]; nextCursor: string | null }
  | { status: 'ready' | 'loadingMore' | 'moreFailed'; results: SearchResult[]; nextCursor: string | null };

const start: SearchState = { status: 'loading', results: [], nextCursor: null };

/** `/search?q=`: articles matching the text, most relevant first, a page at a time (DESIGN.md §8.5). */
export default function SearchPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const cursor = params.get('cursor');
  useDocumentTitle(q ? `Search: ${q}` : 'Search');
  return (
    <section aria-labelledby="search-heading">
      <header className="mb-10 border-b border-slate-200 pb-8 sm:mb-14 sm:pb-12 dark:border-slate-800">
        <p className="eyebrow">Search</p>
        <h1 id="search-heading" dir="auto" className="display-title mt-2 text-[2.25rem] break-words sm:text-[3rem]">
          {q ? `“${q}”` : 'Search the articles'}
        </h1>
      </header>
      {[...q].length > SEARCH_QUERY_MAX_LENGTH ? (
        <EmptyList>Search text can be at most {SEARCH_QUERY_MAX_LENGTH} characters. Try fewer words.</EmptyList>
      ) : q ? (
        <SearchResults key={`${q}\n${cursor ?? ''}`} q={q} cursor={cursor} />
      ) : (
        <EmptyList>Type a word in the search box to find articles by their title, text, tags or author.</EmptyList>
      )}
    </section>
  );
}

/** The served screen's results, taken once, by the screen the page was loaded at (later visits search afresh). */
const taken = new WeakSet<ServedScreen>();

function servedResults(screen: ServedScreen | null, q: string): SearchState | null {
  if (screen?.kind !== 'search' || screen.q.trim() !== q || taken.has(screen)) return null;
  // Not at once: React may run a component's initialiser twice in one render.
  setTimeout(() => taken.add(screen));
  return { status: 'ready', results: screen.page.results, nextCursor: screen.page.nextCursor };
}

/** The search screen's address for `q` from `cursor` on: what "More results" links to without script. */
function searchHref(q: string, cursor: string): string {
  return `${paths.search}?${new URLSearchParams({ q, cursor })}`;
}

function SearchResults({ q, cursor }: { q: string; cursor: string | null }) {
  const { screen } = useServedPage();
  // The server rendered this page with its results (DESIGN.md §9.6): taken over, not asked again.
  const [served] = useState(() => servedResults(screen, q));
  const [state, setState] = useState<SearchState>(served ?? start);
  const firstNew = useRef<HTMLAnchorElement>(null);
  const [focusFrom, setFocusFrom] = useState<number | null>(null);

  const load = useCallback(
    (after: string | null) => {
      setState((current) => ({ ...current, status: after === cursor ? 'loading' : 'loadingMore' }));
      searchArticles(q, after).then(
        (page) =>
          setState((current) => ({
            status: 'ready',
            results: after === cursor ? page.results : [...current.results, ...page.results],
            nextCursor: page.nextCursor,
          })),
        () => setState((current) => ({ ...current, status: after === cursor ? 'failed' : 'moreFailed' })),
      );
    },
    [q, cursor],
  );
  useEffect(() => {
    if (!served) load(cursor);
  }, [load, served, cursor]);
  // After "More results", the keyboard carries on from the first new result.
  useEffect(() => {
    if (focusFrom !== null && state.results.length > focusFrom) {
      firstNew.current?.focus();
      setFocusFrom(null);
    }
  }, [focusFrom, state.results.length]);

  if (state.status === 'loading') {
    return (
      <p role="status" className="text-slate-600 dark:text-slate-400">
        Searching…
      </p>
    );
  }
  if (state.status === 'failed') return <LoadFailure message="Search failed." onRetry={() => load(cursor)} />;
  if (state.results.length === 0) {
    return (
      <EmptyList
        action={
          <Link to={paths.home} className="pill">
            Browse all articles
          </Link>
        }
      >
        No articles match “{q}”.
      </EmptyList>
    );
  }
  return (
    <>
      <ol className="space-y-10" aria-label="Results">
        {state.results.map((result, index) => (
          <li key={result.article.id}>
            <article aria-labelledby={`result-${result.article.id}`} className="space-y-2">
              <h2 id={`result-${result.article.id}`} dir="auto" className="result-title">
                <Link
                  to={paths.article(result.article.id)}
                  ref={index === focusFrom ? firstNew : undefined}
                  className="hover:underline"
                >
                  {result.article.title}
                </Link>
              </h2>
              {/* The server escapes everything in a snippet but its <mark> tags (DESIGN.md §8.5). */}
              <p
                dir="auto"
                className="search-snippet text-slate-700 dark:text-slate-300"
                dangerouslySetInnerHTML={{ __html: result.snippet }}
              />
              <ArticleByline
                authorId={result.article.authorId}
                authorName={result.article.authorName}
                authorSlug={result.article.authorSlug}
                authorPhotoUrl={result.article.authorPhotoUrl}
                date={result.article.date}
              />
              <TagLinks tags={result.article.tags} />
            </article>
          </li>
        ))}
      </ol>
      <div className="mt-10 flex justify-center">
        {state.status === 'moreFailed' && (
          <LoadFailure message="More results could not be loaded." onRetry={() => load(state.nextCursor)} />
        )}
        {state.nextCursor && state.status !== 'moreFailed' && (
          // A link to the next page (decision 0831): without script it leads there; with it, the list grows in place.
          <a
            href={searchHref(q, state.nextCursor)}
            aria-busy={state.status === 'loadingMore'}
            aria-disabled={state.status === 'loadingMore' || undefined}
            className="pill"
            onClick={(event) => {
              event.preventDefault();
              if (state.status === 'loadingMore') return;
              setFocusFrom(state.results.length);
              load(state.nextCursor);
            }}
          >
            {state.status === 'loadingMore' ? 'Loading…' : 'More results'}
          </a>
        )}
      </div>
    </>
  );
}
