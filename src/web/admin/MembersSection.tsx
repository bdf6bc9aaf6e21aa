import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { MemberJson } from '../../shared/invitations.ts';
import { rolesMessages } from '../../shared/invitations.ts';
import { mayManage, type Role } from '../../shared/roles.ts';
import { paths } from '../../shared/routes.ts';
import { inputClass, linkClass } from '../components/formStyles.ts';
import { ArticlesApiError } from '../api/articlesApiError.ts';
import { useAuth } from '../auth/useAuth.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { fittedSecondaryButton, smallButton } from '../components/adminStyles.ts';
import { rolesApi } from '../api/rolesApi.ts';
import { RoleSelect } from './RoleSelect.tsx';
import { Link } from 'react-router';

/** Members: search, role, disable and enable, with article counts. */
export function MembersSection({ actor }: { actor: Role }) {
  const { getIdToken } = useAuth();
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState('');
  const [members, setMembers] = useState<MemberJson[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busyUid, setBusyUid] = useState<string | null>(null);

  const load = useCallback(
    async (q: string, cursor: string | null) => {
      setError(null);
      try {
        const page = await rolesApi.members(getIdToken, q, cursor);
        setMembers((shown) => (cursor && shown ? [...shown, ...page.members] : page.members));
        setNextCursor(page.nextCursor);
      } catch (caught) {
        setError(adminFailure(caught, rolesMessages.loadFailed));
      }
    },
    [getIdToken],
  );

  useEffect(() => {
    void load(searched, null);
  }, [load, searched]);

  async function change(member: MemberJson, change: { role?: Role; disabled?: boolean }) {
    setBusyUid(member.uid);
    setError(null);
    try {
      const changed = await rolesApi.changeMember(getIdToken, member.uid, change);
      setMembers((shown) => shown?.map((m) => (m.uid === changed.uid ? changed : m)) ?? null);
    } catch (caught) {
      setError(
        caught instanceof ArticlesApiError && caught.status === 409
          ? rolesMessages.lastOwner
          : adminFailure(caught, rolesMessages.changeFailed),
      );
    } finally {
      setBusyUid(null);
    }
  }

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSearched(query.trim());
  }

  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-4">
      <h2 id="members-heading" className="text-2xl font-semibold">
        {rolesMessages.members}
      </h2>
      <form role="search" onSubmit={search} className="flex gap-2">
        <input
          type="search"
          aria-label={rolesMessages.searchMembers}
          placeholder={rolesMessages.searchMembers}
          className={`${inputClass} mt-0`}
          value={query}
          maxLength={200}
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="submit" className={fittedSecondaryButton}>
          Search
        </button>
      </form>
      <AdminAlert message={error} />
      {members !== null && members.length === 0 && <p>{rolesMessages.noMembers}</p>}
      <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800" data-testid="members">
        {members?.map((member) => {
          const manageable = mayManage(actor, member.role);
          const name = member.displayName ?? member.email;
          return (
            <li
              key={member.uid}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-4"
              data-testid="member"
            >
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words" dir="auto">
                  <Link to={paths.author(member.uid)} className={linkClass}>
                    {name}
                  </Link>
                  {member.disabled && (
                    <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-800 dark:bg-red-950 dark:text-red-200">
                      {rolesMessages.disabled}
                    </span>
                  )}
                </p>
                <p className="text-sm wrap-anywhere text-slate-600 dark:text-slate-400">
                  {member.email} · {rolesMessages.articlesCount(member.articleCount)}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <RoleSelect
                  actor={actor}
                  value={member.role}
                  label={`${rolesMessages.role}: ${name}`}
                  disabled={!manageable || busyUid === member.uid}
                  onChange={(role) => void change(member, { role })}
                />
                <button
                  type="button"
                  className={smallButton}
                  disabled={!manageable || busyUid === member.uid}
                  aria-label={`${member.disabled ? rolesMessages.enable : rolesMessages.disable} ${name}`}
                  onClick={() => void change(member, { disabled: !member.disabled })}
                >
                  {member.disabled ? rolesMessages.enable : rolesMessages.disable}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {nextCursor !== null && (
        <button
          type="button"
          className={`${fittedSecondaryButton} self-center`}
          onClick={() => void load(searched, nextCursor)}
        >
          {rolesMessages.loadMore}
        </button>
      )}
    </section>
  );
}
