import { useState } from 'react';
import type { Role } from '../../shared/roles.ts';
import type { Article } from '../api/articleTypes.ts';
import { ArticlesApiError } from '../api/articlesApiError.ts';
import { useAuth } from '../auth/useAuth.ts';
import { mayModerate } from './mayModerate.ts';
import { moderationApi } from '../api/moderationApi.ts';
import { moderationTexts as texts } from './moderationTexts.ts';
import { ReasonDialog } from './ReasonDialog.tsx';
import { HIDE_REASON_MAX, REPORT_REASON_MAX } from './reasonLimits.ts';

interface ModerationActionsProps {
  article: Article;
  role: Role;
  isAuthor: boolean;
  /** The article changed on the server (hidden, restored): the page loads it again. */
  onChanged: () => void;
}

type Outcome = { tone: 'success' | 'error'; text: string } | null;

/**
 * A report refused for a reason no retry changes (409: one open report per article; 429: 20 a
 * day, DESIGN.md §8.2): the server's own sentence (docs/product.md, Reports); null for any other failure.
 */
function finalRefusal(error: unknown): string | null {
  return error instanceof ArticlesApiError && (error.status === 409 || error.status === 429) ? error.message : null;
}

/**
 * The article page's moderation buttons: Hide (asks for a reason) or Restore for editors, Report
 * (asks for a reason) for signed-in people other than the author. Loaded only for them.
 */
export function ModerationActions({ article, role, isAuthor, onChanged }: ModerationActionsProps) {
  const { getIdToken } = useAuth();
  const [dialog, setDialog] = useState<'hide' | 'report' | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const hidden = article.status === 'hidden';
  const editor = mayModerate(role);

  function open(which: 'hide' | 'report') {
    setDialogError(null);
    setOutcome(null);
    setDialog(which);
  }

  async function hide(reason: string) {
    setBusy(true);
    try {
      await moderationApi.hide(getIdToken, article.id, reason);
      setDialog(null);
      onChanged();
    } catch {
      setDialogError(texts.hideFailed);
    } finally {
      setBusy(false);
    }
  }

  async function restore() {
    setBusy(true);
    setOutcome(null);
    try {
      await moderationApi.restore(getIdToken, article.id);
      onChanged();
    } catch {
      setOutcome({ tone: 'error', text: texts.restoreFailed });
    } finally {
      setBusy(false);
    }
  }

  async function report(reason: string) {
    setBusy(true);
    try {
      await moderationApi.report(getIdToken, article.id, reason);
      setDialog(null);
      setOutcome({ tone: 'success', text: texts.reportSent });
    } catch (error) {
      const refusal = finalRefusal(error);
      // Nothing to retry: the dialog closes and the page says why. Otherwise the reason stays to send again.
      if (refusal === null) setDialogError(texts.reportFailed);
      else {
        setDialog(null);
        setOutcome({ tone: 'error', text: refusal });
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {editor &&
        (hidden ? (
          <button type="button" className="pill" disabled={busy} onClick={() => void restore()}>
            {texts.restore}
          </button>
        ) : (
          <button type="button" className="pill text-red-700 dark:text-red-400" onClick={() => open('hide')}>
            {texts.hide}
          </button>
        ))}
      {!isAuthor && !hidden && (
        <button type="button" className="pill" onClick={() => open('report')}>
          {texts.report}
        </button>
      )}
      <p
        role={outcome?.tone === 'error' ? 'alert' : 'status'}
        className={`basis-full text-sm empty:hidden ${outcome?.tone === 'error' ? 'text-red-700 dark:text-red-400' : 'text-green-800 dark:text-green-300'}`}
      >
        {outcome?.text}
      </p>
      <ReasonDialog
        open={dialog === 'hide'}
        title={texts.hideTitle}
        body={texts.hideBody}
        label={texts.hideReasonLabel}
        confirmLabel={texts.hide}
        max={HIDE_REASON_MAX}
        danger
        busy={busy}
        error={dialogError}
        onConfirm={(reason) => void hide(reason)}
        onCancel={() => setDialog(null)}
      />
      <ReasonDialog
        open={dialog === 'report'}
        title={texts.reportTitle}
        body={texts.reportBody}
        label={texts.reportReasonLabel}
        confirmLabel={texts.report}
        max={REPORT_REASON_MAX}
        busy={busy}
        error={dialogError}
        onConfirm={(reason) => void report(reason)}
        onCancel={() => setDialog(null)}
      />
    </>
  );
}
