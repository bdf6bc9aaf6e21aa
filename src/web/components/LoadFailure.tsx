import { messages } from '../../shared/messages.ts';

/** A short, non-blocking notice that a call failed, with a way to try again. */
export function LoadFailure({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    // Its look is the .load-failure class (styles.css): CSS costs the home page no script.
    <div role="alert" className="load-failure">
      {/* Says what happened when the browser knows: no network at all is not a server failing. */}
      <span>{navigator.onLine ? message : `${message} ${messages.offline}`}</span>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {messages.retry}
        </button>
      )}
    </div>
  );
}

/**
 * What went wrong with a list of cards, above it: its pages failed to load, with Retry. Empty
 * (and hidden) when nothing did. A failed delete says so beside it (ListDeletion.tsx).
 */
export function ListFailures({ feed }: { feed: { status: string; retry: () => void } }) {
  return (
    <div className="mb-6 space-y-3 empty:hidden">
      {feed.status === 'failed' && <LoadFailure message={messages.articlesLoadFailed} onRetry={feed.retry} />}
    </div>
  );
}
