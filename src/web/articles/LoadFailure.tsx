import { messages } from '../../shared/messages.ts';

/** A short, non-blocking notice that a call failed, with a way to try again. */
export function LoadFailure({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {/* Says what happened when the browser knows: no network at all is not a server failing. */}
      <span>{navigator.onLine ? message : `${message} ${messages.offline}`}</span>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="rounded-md border border-amber-400 px-3 py-1 font-medium hover:bg-amber-100 dark:border-amber-600 dark:hover:bg-amber-900"
        >
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
