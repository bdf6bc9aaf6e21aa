import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { callApi } from '../api/callApi.ts';
import { useAuth } from '../auth/useAuth.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { smallButton } from '../components/adminStyles.ts';

interface SendJson {
  id: string;
  articleId: string;
  title: string;
  createdAt: string;
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  status: 'queued' | 'sending' | 'done';
}

interface SubscriberJson {
  id: string;
  email: string;
  status: 'pending' | 'confirmed' | 'bounced' | 'unsubscribed';
  account: boolean;
  createdAt: string;
}

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/**
 * Newsletter (editors, DESIGN.md §9.3): how many get it, the sends with their progress, and the
 * subscribers, searchable, each removable.
 */
export function NewsletterSection() {
  const { getIdToken } = useAuth();
  const [overview, setOverview] = useState<{ subscribers: number; sends: SendJson[] } | null>(null);
  const [subscribers, setSubscribers] = useState<SubscriberJson[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);

  const loadOverview = useCallback(async () => {
    try {
      setOverview(await callApi('GET', '/newsletters', { token: getIdToken }));
    } catch (caught) {
      setError(adminFailure(caught, 'The newsletter could not be loaded.'));
    }
  }, [getIdToken]);

  const loadSubscribers = useCallback(
    async (q: string, cursor: string | null) => {
      try {
        const params = new URLSearchParams({ q, ...(cursor ? { cursor } : {}) });
        const page = await callApi<{ subscribers: SubscriberJson[]; nextCursor: string | null }>(
          'GET',
          `/subscribers?${params.toString()}`,
          { token: getIdToken },
        );
        setSubscribers((current) => (cursor === null ? page.subscribers : [...(current ?? []), ...page.subscribers]));
        setNextCursor(page.nextCursor);
      } catch (caught) {
        setError(adminFailure(caught, 'The subscribers could not be loaded.'));
      }
    },
    [getIdToken],
  );

  useEffect(() => {
    void loadOverview();
    void loadSubscribers('', null);
    // Progress moves while a send is under way.
    const timer = setInterval(() => void loadOverview(), 5000);
    return () => clearInterval(timer);
  }, [loadOverview, loadSubscribers]);

  async function remove(subscriber: SubscriberJson) {
    try {
      await callApi('DELETE', `/subscribers/${encodeURIComponent(subscriber.id)}`, { token: getIdToken });
      setSubscribers((current) => current?.filter((other) => other.id !== subscriber.id) ?? null);
      void loadOverview();
    } catch (caught) {
      setError(adminFailure(caught, 'The subscriber could not be removed.'));
    }
  }

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void loadSubscribers(query, null);
  }

  return (
    <section aria-labelledby="newsletter-heading" className="flex flex-col gap-6">
      <h2 id="newsletter-heading" className="text-xl font-semibold">
        Newsletter
      </h2>
      <AdminAlert message={error} />
      {overview && (
        <p>
          {overview.subscribers} confirmed {overview.subscribers === 1 ? 'subscriber' : 'subscribers'}
        </p>
      )}
      <div>
        <h3 className="mb-2 font-semibold">Sends</h3>
        {overview?.sends.length === 0 && <p className="text-slate-600 dark:text-slate-400">No sends yet.</p>}
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {overview?.sends.map((send) => (
            <li key={send.id} data-testid="newsletter-send" className="flex flex-col gap-1 py-2 text-sm">
              <span dir="auto" className="font-medium">
                {send.title}
              </span>
              <span className="text-slate-600 dark:text-slate-400">
                {dateFormat.format(new Date(send.createdAt))} · {send.status} · {send.sent} of {send.total} sent
                {send.failed > 0 ? ` · ${send.failed} failed` : ''}
                {send.skipped > 0 ? ` · ${send.skipped} left before their turn` : ''}
              </span>
              <progress max={Math.max(send.total, 1)} value={send.sent + send.failed + send.skipped} className="w-full">
                {send.sent} of {send.total}
              </progress>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="mb-2 font-semibold">Subscribers</h3>
        <form onSubmit={search} className="mb-3 flex gap-2">
          <label htmlFor="subscriber-search" className="sr-only">
            Search subscribers
          </label>
          <input
            id="subscriber-search"
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Search by address"
            className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 dark:border-slate-600 dark:bg-slate-900"
          />
          <button type="submit" className={smallButton}>
            Search
          </button>
        </form>
        {subscribers?.length === 0 && <p className="text-slate-600 dark:text-slate-400">No subscribers.</p>}
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {subscribers?.map((subscriber) => (
            <li
              key={subscriber.id}
              data-testid="subscriber"
              className="flex items-center justify-between gap-3 py-2 text-sm"
            >
              <span className="min-w-0 break-all">
                {subscriber.email}{' '}
                <span className="text-slate-600 dark:text-slate-400">
                  ({subscriber.status}
                  {subscriber.account ? ', account' : ''})
                </span>
              </span>
              <button type="button" className={smallButton} onClick={() => void remove(subscriber)}>
                Remove<span className="sr-only"> {subscriber.email}</span>
              </button>
            </li>
          ))}
        </ul>
        {nextCursor && (
          <button
            type="button"
            className={`${smallButton} mt-3`}
            onClick={() => void loadSubscribers(query, nextCursor)}
          >
            More
          </button>
        )}
      </div>
    </section>
  );
}
