import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { linkClass } from '../components/formStyles.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { MoreButton } from '../components/MoreButton.tsx';
import { useAuth } from '../auth/useAuth.ts';
import { moderationApi, type AuditEntryJson } from '../api/moderationApi.ts';
import { moderationTexts as texts } from './moderationTexts.ts';

// The UTC time to the second, the way the admin command prints it: entries can come in quick succession.
const timeFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/** A detail object as one line: `reason: spam, from: author`. */
function detailText(detail: Record<string, unknown> | null): string {
  if (!detail) return '';
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** Who acted: the operator, a name as of now, or an account deleted since. */
function actorText(entry: AuditEntryJson): string {
  if (entry.actorUid === null) return texts.system;
  if (entry.actorGone) return texts.deletedAccount;
  return entry.actorName ?? texts.unnamed;
}

/** What was acted on: its name as of now (a title, a member's name, a comment's excerpt), else its id. */
function Target({ entry }: { entry: AuditEntryJson }) {
  if (entry.targetGone) return <>{`${entry.targetType} (${texts.deletedTarget})`}</>;
  if (entry.targetName) {
    return (
      <>
        {entry.targetType}{' '}
        {entry.targetType === 'article' ? (
          <Link
            to={paths.article(entry.targetId)}
            dir="auto"
            className={`${linkClass} font-medium [overflow-wrap:anywhere]`}
          >
            {entry.targetName}
          </Link>
        ) : (
          <span dir="auto" className="font-medium text-slate-900 [overflow-wrap:anywhere] dark:text-slate-100">
            {entry.targetName}
          </span>
        )}
      </>
    );
  }
  return (
    <>
      {entry.targetType} <span className="font-mono [overflow-wrap:anywhere]">{entry.targetId}</span>
    </>
  );
}

/** Log (owners): the audit log, newest first, a page at a time with Older. */
export function AuditLogSection() {
  const { getIdToken } = useAuth();
  const [entries, setEntries] = useState<AuditEntryJson[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (cursor: string | null) => {
      setBusy(true);
      setError(null);
      try {
        const page = await moderationApi.audit(getIdToken, cursor);
        setEntries((current) => (cursor === null ? page.entries : [...(current ?? []), ...page.entries]));
        setNextCursor(page.nextCursor);
      } catch (caught) {
        setError(adminFailure(caught, texts.logLoadFailed));
      } finally {
        setBusy(false);
      }
    },
    [getIdToken],
  );
  useEffect(() => {
    void load(null);
  }, [load]);

  return (
    <section aria-labelledby="log-heading" className="flex flex-col gap-4">
      <h2 id="log-heading" className="sr-only">
        {texts.log}
      </h2>
      <AdminAlert message={error} />
      {entries === null && !error && <p className="text-slate-600 dark:text-slate-400">{texts.loading}</p>}
      {entries?.length === 0 && <p className="text-slate-600 dark:text-slate-400">{texts.logEmpty}</p>}
      {entries && entries.length > 0 && (
        <ol className="divide-y divide-slate-200 dark:divide-slate-800">
          {entries.map((entry) => (
            <li key={entry.id} data-testid="audit-entry" className="flex flex-col gap-1 py-3 text-sm">
              <p>
                <span className="font-mono font-semibold">{entry.action}</span>{' '}
                <span className="text-slate-600 dark:text-slate-400">
                  <Target entry={entry} />
                </span>
              </p>
              <p className="text-slate-600 dark:text-slate-400">
                <time dateTime={entry.at}>{timeFormat.format(new Date(entry.at))} UTC</time> ·{' '}
                <span dir="auto" className="[overflow-wrap:anywhere]">
                  {actorText(entry)}
                </span>
              </p>
              {detailText(entry.detail) && (
                <p dir="auto" className="[overflow-wrap:anywhere]">
                  {detailText(entry.detail)}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {nextCursor !== null && (
        <MoreButton busy={busy} onMore={() => void load(nextCursor)}>
          {texts.older}
        </MoreButton>
      )}
    </section>
  );
}
