import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { commentTexts as texts } from '../../shared/comments.ts';
import { paths } from '../../shared/routes.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { smallButton } from '../components/adminStyles.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { linkClass } from '../components/formStyles.ts';
import { formatArticleDate } from '../components/formatArticleDate.ts';
import { useAuth } from '../auth/useAuth.ts';
import { commentsApi, type QueuedComment } from '../api/commentsApi.ts';
import { commentBodyClass } from './CommentsView.tsx';

/** `/admin`'s Comments: the pending queue (COMMENTS=approval), oldest first, each approved or hidden. */
export function CommentsQueueSection() {
  const { getIdToken } = useAuth();
  const [queue, setQueue] = useState<QueuedComment[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    try {
      setQueue((await commentsApi.pending(getIdToken)).comments);
    } catch (caught) {
      setError(adminFailure(caught, texts.loadFailed));
    }
  }, [getIdToken]);
  useEffect(() => {
    void load();
  }, [load]);

  async function act(comment: QueuedComment, action: 'approve' | 'hide') {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      if (action === 'approve') await commentsApi.approve(getIdToken, comment.id);
      else await commentsApi.hide(getIdToken, comment.id, 'Not approved');
      setDone(action === 'approve' ? 'The comment is published.' : 'The comment is hidden.');
      await load();
    } catch (caught) {
      setError(adminFailure(caught, 'That did not work. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="comments-queue-heading" className="flex flex-col gap-4">
      <h2 id="comments-queue-heading" className="sr-only">
        {texts.heading}
      </h2>
      <div className="flex flex-col gap-2 empty:hidden">
        <AdminAlert message={error} />
        <FormAlert message={done} tone="success" />
      </div>
      {queue === null && !error && <p className="text-slate-600 dark:text-slate-400">Loading…</p>}
      {queue?.length === 0 && (
        <p className="text-slate-600 dark:text-slate-400">No comments are waiting for approval.</p>
      )}
      {queue && queue.length > 0 && (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {queue.map((comment) => {
            const name = comment.author?.displayName ?? 'Someone';
            return (
              <li key={comment.id} data-testid="pending-comment" className="flex flex-col gap-2 py-4">
                <Link
                  to={`${paths.article(comment.articleId)}#comment-${comment.id}`}
                  dir="auto"
                  className={`${linkClass} font-medium [overflow-wrap:anywhere]`}
                >
                  {comment.articleTitle ?? comment.articleId}
                </Link>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {name} · <time dateTime={comment.createdAt}>{formatArticleDate(comment.createdAt)}</time>
                </p>
                <div
                  dir="auto"
                  className={`${commentBodyClass} !mt-0`}
                  dangerouslySetInnerHTML={{ __html: comment.bodyHtml }}
                />
                <div className="flex gap-2">
                  <button
                    type="button"
                    className={smallButton}
                    disabled={busy}
                    onClick={() => void act(comment, 'approve')}
                  >
                    {texts.approve}
                    <span className="sr-only"> {name}</span>
                  </button>
                  <button
                    type="button"
                    className={`${smallButton} text-red-700 dark:text-red-400`}
                    disabled={busy}
                    onClick={() => void act(comment, 'hide')}
                  >
                    {texts.hide}
                    <span className="sr-only"> {name}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
