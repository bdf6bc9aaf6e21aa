import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { smallButton } from '../components/adminStyles.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { inputClass, linkClass } from '../components/formStyles.ts';
import { formatArticleDate } from '../components/formatArticleDate.ts';
import { useAuth } from '../auth/useAuth.ts';
import { moderationApi, type ReportJson } from '../api/moderationApi.ts';
import { moderationTexts as texts } from './moderationTexts.ts';

/** Reports: the open ones, each closed with Hide (the article) or Dismiss, with an optional note. */
export function ReportsSection() {
  const { getIdToken } = useAuth();
  const [reports, setReports] = useState<ReportJson[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setError(null);
    try {
      setReports((await moderationApi.openReports(getIdToken)).reports);
    } catch (caught) {
      setError(adminFailure(caught, texts.reportsLoadFailed));
    }
  }, [getIdToken]);
  useEffect(() => {
    void load();
  }, [load]);

  async function resolve(report: ReportJson, action: 'hide' | 'dismiss', note: string) {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await moderationApi.resolveReport(getIdToken, report.id, action, note.trim());
      setDone(texts.resolved);
      // Hiding closes the article's other reports too, as the server sees them: ask it again.
      await load();
    } catch (caught) {
      setError(adminFailure(caught, texts.resolveFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="reports-heading" className="flex flex-col gap-4">
      <h2 id="reports-heading" className="sr-only">
        {texts.reports}
      </h2>
      <div className="flex flex-col gap-2 empty:hidden">
        <AdminAlert message={error} />
        <FormAlert message={done} tone="success" />
      </div>
      {reports === null && !error && <p className="text-slate-600 dark:text-slate-400">{texts.loading}</p>}
      {reports?.length === 0 && <p className="text-slate-600 dark:text-slate-400">{texts.reportsEmpty}</p>}
      {reports && reports.length > 0 && (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {reports.map((report) => (
            <ReportItem key={report.id} report={report} busy={busy} onResolve={resolve} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** What names the reported article: its title, else (no longer published) its id. */
const articleName = (report: ReportJson) => report.articleTitle ?? report.articleId;

/** Who reported: their name, a link to their author page when they have one. */
function Reporter({ report }: { report: ReportJson }) {
  const name = report.reporterName ?? texts.unnamed;
  if (!report.reporterSlug) return <span dir="auto">{name}</span>;
  return (
    <Link to={paths.author(report.reporterSlug)} dir="auto" className={`${linkClass} [overflow-wrap:anywhere]`}>
      {name}
    </Link>
  );
}

function ReportItem({
  report,
  busy,
  onResolve,
}: {
  report: ReportJson;
  busy: boolean;
  onResolve: (report: ReportJson, action: 'hide' | 'dismiss', note: string) => Promise<void>;
}) {
  const noteId = useId();
  const [note, setNote] = useState('');
  return (
    <li data-testid="report" className="flex flex-col gap-2 py-4">
      <Link
        to={
          report.commentId
            ? `${paths.article(report.articleId)}#comment-${report.commentId}`
            : paths.article(report.articleId)
        }
        dir="auto"
        className={`${linkClass} font-medium [overflow-wrap:anywhere]`}
      >
        {report.commentId ? `A comment on ${articleName(report)}` : articleName(report)}
      </Link>
      <p dir="auto" className="whitespace-pre-line [overflow-wrap:anywhere]">
        {report.reason}
      </p>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {texts.reportedBy} <time dateTime={report.createdAt}>{formatArticleDate(report.createdAt)}</time> {texts.by}{' '}
        <Reporter report={report} />
      </p>
      <label htmlFor={noteId} className="text-sm font-medium">
        {texts.noteLabel}
      </label>
      <input
        id={noteId}
        dir="auto"
        value={note}
        onChange={(event) => setNote(event.target.value)}
        className={`${inputClass} mt-0`}
      />
      <div className="flex gap-2">
        <button
          type="button"
          className={`${smallButton} text-red-700 dark:text-red-400`}
          disabled={busy}
          onClick={() => void onResolve(report, 'hide', note)}
        >
          {texts.hide}
          <span className="sr-only"> {articleName(report)}</span>
        </button>
        <button
          type="button"
          className={smallButton}
          disabled={busy}
          onClick={() => void onResolve(report, 'dismiss', note)}
        >
          {texts.dismiss}
          <span className="sr-only"> {articleName(report)}</span>
        </button>
      </div>
    </li>
  );
}
