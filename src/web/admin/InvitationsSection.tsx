import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { rolesMessages, type CreatedInvitationJson, type InvitationJson } from '../../shared/invitations.ts';
import { roleLabels, type Role, mayGrant } from '../../shared/roles.ts';
import { FormField } from '../components/FormField.tsx';
import { inputClass, primaryButtonClass } from '../components/formStyles.ts';
import { ArticlesApiError } from '../api/articlesApiError.ts';
import { formatArticleDate } from '../components/formatArticleDate.ts';
import { useAuth } from '../auth/useAuth.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { fittedSecondaryButton, smallButton } from '../components/adminStyles.ts';
import { rolesApi } from '../api/rolesApi.ts';
import { RoleSelect } from './RoleSelect.tsx';

/** Invitations: make one (a role, optionally an address), copy its link, revoke pending ones. */
export function InvitationsSection({ actor }: { actor: Role }) {
  const { getIdToken } = useAuth();
  const roleId = useId();
  const [role, setRole] = useState<Role>('author');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<CreatedInvitationJson | null>(null);
  const [copied, setCopied] = useState(false);
  const [pending, setPending] = useState<InvitationJson[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setPending((await rolesApi.invitations(getIdToken)).invitations);
    } catch (caught) {
      setError(adminFailure(caught, rolesMessages.loadFailed));
    }
  }, [getIdToken]);
  useEffect(() => {
    void load();
  }, [load]);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setCopied(false);
    try {
      const trimmed = email.trim();
      setCreated(await rolesApi.createInvitation(getIdToken, { role, ...(trimmed ? { email: trimmed } : {}) }));
      setEmail('');
      await load();
    } catch (caught) {
      setError(
        caught instanceof ArticlesApiError && caught.fieldErrors[0]
          ? caught.fieldErrors[0].message
          : adminFailure(caught, rolesMessages.changeFailed),
      );
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: string) {
    setError(null);
    try {
      await rolesApi.revokeInvitation(getIdToken, id);
    } catch (caught) {
      setError(adminFailure(caught, rolesMessages.changeFailed));
    }
    await load();
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin): the link stays selected in its field to copy by hand.
      document.getElementById('invitation-link')?.focus();
    }
  }

  return (
    <section aria-labelledby="invitations-heading" className="flex flex-col gap-4">
      <h2 id="invitations-heading" className="text-2xl font-semibold">
        {rolesMessages.invitations}
      </h2>
      <form onSubmit={create} className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <div>
          <label htmlFor={roleId} className="block text-sm font-medium">
            {rolesMessages.role}
          </label>
          <div className="mt-1">
            <RoleSelect id={roleId} actor={actor} value={role} label={rolesMessages.role} onChange={setRole} />
          </div>
        </div>
        <div className="flex-1">
          <FormField
            label={rolesMessages.emailOptional}
            type="email"
            name="invitationEmail"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <button
          type="submit"
          className={`${primaryButtonClass} sm:w-auto sm:shrink-0`}
          disabled={busy || !mayGrant(actor, role)}
        >
          {rolesMessages.createInvitation}
        </button>
      </form>
      <AdminAlert message={error} />
      {created && (
        <div className="flex flex-col gap-2 rounded-md border border-green-300 bg-green-50 p-3 dark:border-green-800 dark:bg-green-950">
          <p className="text-sm">
            {created.email === null
              ? rolesMessages.newInvitation
              : created.mailed
                ? rolesMessages.invitationMailed(created.email)
                : rolesMessages.invitationNotMailed(created.email)}
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id="invitation-link"
              readOnly
              aria-label={rolesMessages.copyLink}
              className={`${inputClass} mt-0 font-mono text-sm`}
              value={created.url}
              onFocus={(event) => event.target.select()}
              data-testid="invitation-link"
            />
            <button type="button" className={fittedSecondaryButton} onClick={() => void copy(created.url)}>
              {copied ? rolesMessages.copied : rolesMessages.copyLink}
            </button>
          </div>
        </div>
      )}
      {pending !== null && pending.length === 0 && <p>{rolesMessages.noInvitations}</p>}
      <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800" data-testid="invitations">
        {pending?.map((invitation) => (
          <li
            key={invitation.id}
            className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-4"
            data-testid="invitation"
          >
            <div className="min-w-0 flex-1">
              <p className="font-medium">{roleLabels[invitation.role]}</p>
              <p className="text-sm wrap-anywhere text-slate-600 dark:text-slate-400">
                {invitation.email ?? rolesMessages.anyAddress} ·{' '}
                {rolesMessages.expires(formatArticleDate(invitation.expiresAt))}
              </p>
            </div>
            <button
              type="button"
              className={smallButton}
              disabled={!mayGrant(actor, invitation.role)}
              aria-label={`${rolesMessages.revoke}: ${roleLabels[invitation.role]} ${invitation.email ?? ''}`.trim()}
              onClick={() => void revoke(invitation.id)}
            >
              {rolesMessages.revoke}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
