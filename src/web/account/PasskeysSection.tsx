import { useCallback, useEffect, useId, useState } from 'react';
import { accountMessages } from '../../shared/messages.ts';
import { hasCode } from '../auth/errorCodes.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { FormAlert } from './FormAlert.tsx';
import { secondaryButtonClass } from './formStyles.ts';
import { passkeyMessages } from './passkeyMessages.ts';
import { addPasskey, listPasskeys, PasskeyError, removePasskey, type PasskeyView } from './passkeys.ts';
import { PasswordDialog } from './PasswordDialog.tsx';
import { SubmitButton } from './SubmitButton.tsx';

type Outcome = { message: string; tone: 'error' | 'success' } | null;

const when = (epochMs: string) =>
  new Date(Number(epochMs)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The profile's Passkeys section: the account's passkeys, Add a passkey, and Remove on each. */
export function PasskeysSection() {
  const session = useAuthSession();
  const headingId = useId();
  const [passkeys, setPasskeys] = useState<PasskeyView[] | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState<string | null>(null); // 'add', or the credential id being removed
  const [reauthenticating, setReauthenticating] = useState(false);

  const reload = useCallback(async () => {
    try {
      setPasskeys(await listPasskeys(session));
    } catch {
      setOutcome({ message: passkeyMessages.loadFailed, tone: 'error' });
    }
  }, [session]);

  useEffect(() => {
    void reload();
  }, [reload]);

  async function add() {
    setBusy('add');
    setOutcome(null);
    try {
      await addPasskey(session);
      await reload();
      setOutcome({ message: passkeyMessages.addedNotice, tone: 'success' });
    } catch (error) {
      // Adding a way in needs a recent sign-in: prove it first, then add.
      if (hasCode(error, 'requires-recent-login')) setReauthenticating(true);
      else setOutcome({ message: messageOf(error), tone: 'error' });
    } finally {
      setBusy(null);
    }
  }

  async function remove(passkey: PasskeyView) {
    setBusy(passkey.credentialId);
    setOutcome(null);
    try {
      await removePasskey(session, passkey.credentialId);
      await reload();
      setOutcome({ message: passkeyMessages.removedNotice, tone: 'success' });
    } catch (error) {
      setOutcome({ message: messageOf(error), tone: 'error' });
    } finally {
      setBusy(null);
    }
  }

  async function reauthenticateAndAdd(password: string | null) {
    if (password !== null) {
      try {
        await session.reauthenticate(password);
      } catch (error) {
        throw new Error(hasCode(error, 'invalid-credential') ? accountMessages.wrongPassword : passkeyMessages.failed, {
          cause: error,
        });
      }
    }
    setReauthenticating(false);
    await add();
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {passkeyMessages.sectionTitle}
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">{passkeyMessages.sectionIntro}</p>
      {/* Only while there is something to say: an alert role is announced as it appears. */}
      {outcome !== null && <FormAlert message={outcome.message} tone={outcome.tone} />}
      {passkeys !== null && passkeys.length === 0 && (
        <p className="text-sm text-slate-700 dark:text-slate-300">{passkeyMessages.none}</p>
      )}
      {passkeys !== null && passkeys.length > 0 && (
        <ul className="flex flex-col gap-2" data-testid="passkey-list">
          {passkeys.map((passkey) => (
            <li
              key={passkey.credentialId}
              className="flex items-center justify-between gap-3 rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800"
            >
              <div className="min-w-0">
                <p dir="auto" className="font-medium break-words">
                  {passkey.name}
                </p>
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  {passkeyMessages.added(when(passkey.createdAt))},{' '}
                  {passkey.lastUsedAt === null
                    ? passkeyMessages.neverUsed
                    : passkeyMessages.lastUsed(when(passkey.lastUsedAt))}
                </p>
              </div>
              <SubmitButton
                type="button"
                busy={busy === passkey.credentialId}
                variant={`${secondaryButtonClass} !w-auto`}
                aria-label={passkeyMessages.removeLabel(passkey.name)}
                onClick={() => void remove(passkey)}
              >
                {passkeyMessages.remove}
              </SubmitButton>
            </li>
          ))}
        </ul>
      )}
      <SubmitButton type="button" busy={busy === 'add'} variant={secondaryButtonClass} onClick={() => void add()}>
        {passkeyMessages.addPasskey}
      </SubmitButton>
      <PasswordDialog
        open={reauthenticating}
        title={accountMessages.confirmItsYou}
        description={passkeyMessages.reauthenticateReason}
        confirmLabel={accountMessages.confirm}
        // Adding the first passkey: there is none yet to prove it with.
        offerPasskey={(passkeys?.length ?? 0) > 0}
        onConfirm={reauthenticateAndAdd}
        onCancel={() => setReauthenticating(false)}
      />
    </section>
  );
}

function messageOf(error: unknown): string {
  return error instanceof PasskeyError ? error.message : passkeyMessages.failed;
}
