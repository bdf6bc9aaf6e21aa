import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { SITE_IDENTITY_ELEMENT_ID } from '../../shared/siteIdentity.ts';
import { callApi } from '../api/callApi.ts';
import { useAuth } from '../auth/useAuth.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { smallButton } from '../components/adminStyles.ts';

interface FollowerJson {
  actorId: string;
  handle: string;
  domain: string;
  createdAt: string;
}

interface BlockJson {
  kind: 'domain' | 'actor';
  value: string;
  createdAt: string;
}

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** The handle people follow, from the shell's site data (written there only when FEDERATION=on). */
export function readFediverseHandle(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  try {
    const value = JSON.parse(document.getElementById(SITE_IDENTITY_ELEMENT_ID)?.textContent ?? '') as {
      fediverse?: unknown;
    };
    return typeof value.fediverse === 'string' ? value.fediverse : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fediverse (editors, DESIGN.md §9.4): the followers (count and list) and the blocked domains and
 * actors. A block removes that server's (or actor's) follows, likes, reposts and replies and
 * refuses what it sends; the server audits it.
 */
export function FediverseSection({ handle }: { handle: string }) {
  const { getIdToken } = useAuth();
  const [count, setCount] = useState<number | null>(null);
  const [followers, setFollowers] = useState<FollowerJson[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [blocks, setBlocks] = useState<BlockJson[] | null>(null);
  const [kind, setKind] = useState<'domain' | 'actor'>('domain');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const loadFollowers = useCallback(
    async (cursor: string | null) => {
      try {
        const page = await callApi<{ count: number; followers: FollowerJson[]; nextCursor: string | null }>(
          'GET',
          `/federation/followers${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
          { token: getIdToken },
        );
        setCount(page.count);
        setFollowers((current) => (cursor === null ? page.followers : [...(current ?? []), ...page.followers]));
        setNextCursor(page.nextCursor);
      } catch (caught) {
        setError(adminFailure(caught, 'The followers could not be loaded.'));
      }
    },
    [getIdToken],
  );
  const loadBlocks = useCallback(async () => {
    try {
      setBlocks((await callApi<{ blocks: BlockJson[] }>('GET', '/federation/blocks', { token: getIdToken })).blocks);
    } catch (caught) {
      setError(adminFailure(caught, 'The blocks could not be loaded.'));
    }
  }, [getIdToken]);

  useEffect(() => {
    void loadFollowers(null);
    void loadBlocks();
  }, [loadFollowers, loadBlocks]);

  async function block(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await callApi('POST', '/federation/blocks', { token: getIdToken, body: { kind, value } });
      setValue('');
      await Promise.all([loadBlocks(), loadFollowers(null)]);
    } catch (caught) {
      setError(adminFailure(caught, 'The block could not be made.'));
    } finally {
      setBusy(false);
    }
  }

  async function unblock(item: BlockJson) {
    try {
      const query = new URLSearchParams({ kind: item.kind, value: item.value });
      await callApi('DELETE', `/federation/blocks?${query.toString()}`, { token: getIdToken });
      await loadBlocks();
    } catch (caught) {
      setError(adminFailure(caught, 'The block could not be lifted.'));
    }
  }

  return (
    <section aria-labelledby="fediverse-heading" className="flex flex-col gap-6">
      <h2 id="fediverse-heading" className="text-xl font-semibold">
        Fediverse
      </h2>
      <p className="text-slate-600 dark:text-slate-400">
        People on Mastodon and other fediverse servers follow <span className="font-medium">{handle}</span>.
      </p>
      <AdminAlert message={error} />
      <div>
        <h3 className="mb-2 font-semibold">
          {count === null ? 'Followers' : `${count} ${count === 1 ? 'follower' : 'followers'}`}
        </h3>
        {followers?.length === 0 && <p className="text-slate-600 dark:text-slate-400">No followers yet.</p>}
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {followers?.map((follower) => (
            <li key={follower.actorId} data-testid="fediverse-follower" className="flex flex-wrap gap-x-3 py-2 text-sm">
              <a href={follower.actorId} rel="nofollow noopener" className="font-medium break-all underline">
                {follower.handle}
              </a>
              <span className="text-slate-600 dark:text-slate-400">
                since {dateFormat.format(new Date(follower.createdAt))}
              </span>
            </li>
          ))}
        </ul>
        {nextCursor && (
          <button type="button" className={`${smallButton} mt-2`} onClick={() => void loadFollowers(nextCursor)}>
            More followers
          </button>
        )}
      </div>
      <div>
        <h3 className="mb-2 font-semibold">Blocked</h3>
        <form onSubmit={(event) => void block(event)} className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-sm">
            <span>Block a</span>
            <select
              value={kind}
              onChange={(event) => setKind(event.target.value === 'actor' ? 'actor' : 'domain')}
              className="rounded-md border px-2 py-1 dark:bg-slate-900"
            >
              <option value="domain">Domain</option>
              <option value="actor">Actor</option>
            </select>
          </label>
          <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
            <span>{kind === 'domain' ? 'Domain (example.social)' : 'Actor address (https://…)'}</span>
            <input
              value={value}
              onChange={(event) => setValue(event.target.value)}
              required
              className="rounded-md border px-3 py-1 dark:bg-slate-900"
            />
          </label>
          <button type="submit" disabled={busy} className={smallButton}>
            Block
          </button>
        </form>
        {blocks?.length === 0 && <p className="mt-2 text-slate-600 dark:text-slate-400">Nothing is blocked.</p>}
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          {blocks?.map((item) => (
            <li
              key={`${item.kind}:${item.value}`}
              data-testid="fediverse-block"
              className="flex items-center gap-3 py-2 text-sm"
            >
              <span className="min-w-0 flex-1 break-all">
                <span className="text-slate-600 dark:text-slate-400">
                  {item.kind === 'domain' ? 'Domain' : 'Actor'}:
                </span>{' '}
                {item.value}
              </span>
              <button type="button" className={smallButton} onClick={() => void unblock(item)}>
                Unblock
              </button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
