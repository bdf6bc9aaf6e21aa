import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  COMMENT_HIDE_REASON_MAX_LENGTH,
  commentTexts as texts,
  type Comment,
  type CommentPage,
} from '../../shared/comments.ts';
import { can } from '../../shared/roles.ts';
import { paths } from '../../shared/routes.ts';
import { linkClass } from '../components/formStyles.ts';
import { useRole } from '../auth/useRole.ts';
import { ApiError } from '../api/apiError.ts';
import { readTokenClaims } from '../auth/idToken.ts';
import { useAuth } from '../auth/useAuth.ts';
import { ReasonDialog } from '../moderation/ReasonDialog.tsx';
import { REPORT_REASON_MAX } from '../moderation/reasonLimits.ts';
import { CommentForm, failureText } from './CommentForm.tsx';
import { commentsApi } from '../api/commentsApi.ts';
import { CommentsView } from './CommentsView.tsx';

/** Whether the signed-in person's address is verified (their ID token says; the server checks). */
function useVerified(): boolean | undefined {
  const { state, getIdToken } = useAuth();
  const [verified, setVerified] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (state.status !== 'signedIn') return;
    let current = true;
    void getIdToken().then((token) => {
      const claims = token ? (readTokenClaims(token) as { email_verified?: unknown }) : {};
      if (current) setVerified(claims.email_verified === true);
    });
    return () => {
      current = false;
    };
  }, [state, getIdToken]);
  return verified;
}

type Dialog = { kind: 'report' | 'hide'; comment: Comment } | null;

/**
 * The comments with what the reader may do (DESIGN.md §9.2): the form for signed-in people with a
 * verified address (else "Sign in to comment" / "Verify your email to comment"), Reply, Edit and
 * Delete (their own), Report (others'), Approve, Hide and Restore (editors and the article's
 * author). Loaded by CommentsSlot when the comments come near the screen.
 */
export function CommentsSection({
  articleId,
  articleAuthorId,
  servedHtml,
}: {
  articleId: string;
  articleAuthorId: string;
  /** The markup the server rendered, shown until the comments are read as this reader sees them. */
  servedHtml: string | null;
}) {
  const { state: auth, getIdToken } = useAuth();
  const role = useRole();
  const verified = useVerified();
  const signedIn = auth.status === 'signedIn';
  const uid = signedIn ? auth.user.uid : null;
  const staff = signedIn && (uid === articleAuthorId || (!!role && can(role, 'comment:moderate')));
  const [pages, setPages] = useState<CommentPage[] | null>(null);
  const [gone, setGone] = useState(false);
  const [failed, setFailed] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dialogBusy, setDialogBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);

  const token = signedIn ? getIdToken : undefined;
  /** The pages shown so far, asked again (as the signed-in person sees them). */
  const reload = useCallback(
    async (count = 1) => {
      try {
        const fresh: CommentPage[] = [];
        let cursor: string | null = null;
        do {
          const page: CommentPage = await commentsApi.list(articleId, cursor, token);
          fresh.push(page);
          cursor = page.nextCursor;
        } while (cursor !== null && fresh.length < count);
        setPages(fresh);
        setFailed(false);
      } catch (error) {
        // 404: comments are off, or the article is not there for this reader.
        if (error instanceof ApiError && error.status === 404) setGone(true);
        else setFailed(true);
      }
    },
    [articleId, token],
  );
  useEffect(() => {
    if (auth.status === 'unknown') return;
    void reload();
  }, [auth.status, reload]);

  if (gone) return null;
  const shownCount = pages?.length ?? 1;
  const merged: CommentPage | null = pages && {
    comments: pages.flatMap((page) => page.comments),
    nextCursor: pages.at(-1)!.nextCursor,
    count: pages.at(-1)!.count,
    fediverse: pages.at(-1)!.fediverse,
  };
  if (!merged) {
    if (servedHtml !== null) return <div id="comments" dangerouslySetInnerHTML={{ __html: servedHtml }} />;
    return (
      <div id="comments" className="mt-14 text-center font-sans text-slate-600 dark:text-slate-400">
        {failed ? texts.loadFailed : null}
      </div>
    );
  }

  const act = async (task: () => Promise<unknown>, done: string) => {
    setStatus(null);
    try {
      await task();
      setStatus(done);
      await reload(shownCount);
    } catch (error) {
      setStatus(failureText(error, 'That did not work. Please try again.'));
    }
  };

  const mayWrite = signedIn && verified === true;
  const form =
    auth.status === 'unknown' ? null : !signedIn ? (
      <p className="mt-4">
        <Link
          to={paths.login}
          state={{ from: { pathname: paths.article(articleId), search: '', hash: '#comments' } }}
          className={linkClass}
        >
          {texts.signInToComment}
        </Link>
      </p>
    ) : verified === false ? (
      <p className="mt-4">
        <Link to={paths.profile} className={linkClass}>
          {texts.verifyToComment}
        </Link>
      </p>
    ) : mayWrite ? (
      <CommentForm
        draftKey={`${articleId}:new`}
        label={texts.formLabel}
        submitLabel={texts.send}
        onSubmit={async (body) => {
          await commentsApi.create(getIdToken, articleId, body);
          setStatus(null);
          await reload(shownCount);
        }}
      />
    ) : null;

  const tools = (comment: Comment) => {
    if (!signedIn) return null;
    const own = comment.author?.uid === uid;
    const top = comment.parentId ?? comment.id;
    const name = comment.author?.displayName ?? '';
    const label = (text: string) => (
      <>
        {text}
        <span className="sr-only"> {name}</span>
      </>
    );
    if (confirming === comment.id) {
      return (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
          <span>{texts.confirmDelete}</span>
          <button
            type="button"
            className="pill text-red-700 dark:text-red-400"
            onClick={() => {
              setConfirming(null);
              void act(() => commentsApi.remove(getIdToken, comment.id), 'The comment is deleted.');
            }}
          >
            {texts.delete}
          </button>
          <button type="button" className="pill" onClick={() => setConfirming(null)}>
            {texts.cancel}
          </button>
        </div>
      );
    }
    return (
      <div className="mt-2 -ms-2 flex flex-wrap gap-1 text-sm">
        {mayWrite && comment.status !== 'hidden' && (
          <button
            type="button"
            className="rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
            onClick={() => setReplyTo(top)}
          >
            {label(texts.reply)}
          </button>
        )}
        {own && comment.body !== undefined && (
          <button
            type="button"
            className="rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
            onClick={() => setEditing(comment.id)}
          >
            {label(texts.edit)}
          </button>
        )}
        {(own || staff) && (
          <button
            type="button"
            className="rounded px-2 py-1 text-red-700 hover:bg-slate-100 dark:text-red-400 dark:hover:bg-slate-800"
            onClick={() => setConfirming(comment.id)}
          >
            {label(texts.delete)}
          </button>
        )}
        {!own && (
          <button
            type="button"
            className="rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
            onClick={() => setDialog({ kind: 'report', comment })}
          >
            {label(texts.report)}
          </button>
        )}
        {staff && comment.status === 'pending' && (
          <button
            type="button"
            className="rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
            onClick={() => void act(() => commentsApi.approve(getIdToken, comment.id), 'The comment is published.')}
          >
            {label(texts.approve)}
          </button>
        )}
        {staff && comment.status === 'hidden' && (
          <button
            type="button"
            className="rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
            onClick={() => void act(() => commentsApi.restore(getIdToken, comment.id), 'The comment is shown again.')}
          >
            {label(texts.restore)}
          </button>
        )}
        {staff && comment.status !== 'hidden' && (
          <button
            type="button"
            className="rounded px-2 py-1 text-red-700 hover:bg-slate-100 dark:text-red-400 dark:hover:bg-slate-800"
            onClick={() => setDialog({ kind: 'hide', comment })}
          >
            {label(texts.hide)}
          </button>
        )}
      </div>
    );
  };

  const confirmDialog = async (reason: string) => {
    if (!dialog) return;
    setDialogBusy(true);
    setDialogError(null);
    try {
      if (dialog.kind === 'report') await commentsApi.report(getIdToken, dialog.comment.id, reason);
      else await commentsApi.hide(getIdToken, dialog.comment.id, reason);
      setStatus(dialog.kind === 'report' ? texts.reported : 'The comment is hidden.');
      setDialog(null);
      await reload(shownCount);
    } catch (error) {
      setDialogError(failureText(error, 'That did not work. Please try again.'));
    } finally {
      setDialogBusy(false);
    }
  };

  return (
    <div id="comments">
      <CommentsView
        page={merged}
        viewerUid={uid}
        form={
          <>
            {form}
            <p role="status" className="mt-3 text-sm text-slate-700 empty:hidden dark:text-slate-300">
              {status}
            </p>
          </>
        }
        tools={tools}
        editing={(comment) =>
          editing === comment.id ? (
            <CommentForm
              draftKey={`${articleId}:edit:${comment.id}`}
              label={texts.editLabel}
              submitLabel={texts.save}
              initial={comment.body ?? ''}
              autoFocus
              onCancel={() => setEditing(null)}
              onSubmit={async (body) => {
                await commentsApi.edit(getIdToken, comment.id, body);
                setEditing(null);
                await reload(shownCount);
              }}
            />
          ) : null
        }
        threadEnd={(comment) =>
          replyTo === comment.id ? (
            <li>
              <CommentForm
                draftKey={`${articleId}:reply:${comment.id}`}
                label={texts.replyLabel}
                submitLabel={texts.sendReply}
                autoFocus
                onCancel={() => setReplyTo(null)}
                onSubmit={async (body) => {
                  await commentsApi.create(getIdToken, articleId, body, comment.id);
                  setReplyTo(null);
                  await reload(shownCount);
                }}
              />
            </li>
          ) : null
        }
        more={
          merged.nextCursor && (
            <button
              type="button"
              className="pill mt-8"
              onClick={() =>
                void commentsApi
                  .list(articleId, merged.nextCursor, token)
                  .then((page) => setPages((shown) => [...(shown ?? []), page]))
                  .catch(() => setStatus(texts.loadFailed))
              }
            >
              {texts.more}
            </button>
          )
        }
      />
      <ReasonDialog
        open={dialog !== null}
        title={dialog?.kind === 'hide' ? 'Hide this comment?' : 'Report this comment'}
        body={
          dialog?.kind === 'hide'
            ? 'Readers will no longer see it; its writer, the article’s author and editors still do.'
            : 'Editors will look at it. Say what is wrong with it.'
        }
        label="Reason"
        confirmLabel={dialog?.kind === 'hide' ? texts.hide : texts.report}
        max={dialog?.kind === 'hide' ? COMMENT_HIDE_REASON_MAX_LENGTH : REPORT_REASON_MAX}
        busy={dialogBusy}
        danger={dialog?.kind === 'hide'}
        error={dialogError}
        onConfirm={(reason) => void confirmDialog(reason)}
        onCancel={() => {
          setDialog(null);
          setDialogError(null);
        }}
      />
    </div>
  );
}
