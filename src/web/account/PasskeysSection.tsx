import { useCallback, useEffect, useId, useState } from 'react';
import { accountMessages } from '../../shared/accountMessages.ts';
import { hasCode } from '../auth/errorCodes.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { secondaryButtonClass } from '../components/formStyles.ts';
import { passkeyMessages } from './passkeyMessages.ts';
import { addPasskey, listPasskeys, PasskeyError, removePasskey, renamePasskey, type PasskeyView } from './passkeys.ts';
import { PasskeyItem } from './PasskeyItem.tsx';
import { PasswordDialog } from './PasswordDialog.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { accountSessionOf } from '../auth/accountSession.ts';

type Outcome = { message: string; tone: 'error' | 'success' } | null;

/** The profile's Passkeys section: the account's passkeys, Add a passkey, and Remove on each. */
export function PasskeysSection() {
  const session = useAuthSession();
  const headingId = useId();
  const [passkeys, setPasskeys] = useState<PasskeyView[] | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [adding, setAdding] = useState(false);
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
    setAdding(true);
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
      setAdding(false);
    }
  }

  /** Renaming and removing: one request, then the list read again and the outcome said (rejects on failure). */
  async function change(request: () => Promise<void>, notice: string) {
    setOutcome(null);
    try {
      await request();
      await reload();
      setOutcome({ message: notice, tone: 'success' });
    } catch (error) {
      setOutcome({ message: messageOf(error), tone: 'error' });
      throw error;
    }
  }

  const remove = (passkey: PasskeyView) =>
    change(() => removePasskey(session, passkey.credentialId), passkeyMessages.removedNotice);

  const rename = (passkey: PasskeyView, name: string) =>
    change(() => renamePasskey(session, passkey.credentialId, name), passkeyMessages.renamedNotice);

  async function reauthenticateAndAdd(password: string | null) {
    if (password !== null) {
      try {
        await accountSessionOf(session).reauthenticate(password);
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
      <h3 id={headingId} className="text-base font-semibold">
        {passkeyMessages.sectionTitle}
      </h3>
      <p className="text-sm text-slate-700 dark:text-slate-300">{passkeyMessages.sectionIntro}</p>
      {/* Only while there is something to say: an alert role is announced as it appears. */}
      {outcome !== null && <FormAlert message={outcome.message} tone={outcome.tone} />}
      {passkeys !== null && passkeys.length === 0 && (
        <p className="text-sm text-slate-700 dark:text-slate-300">{passkeyMessages.none}</p>
      )}
      {passkeys !== null && passkeys.length > 0 && (
        <ul className="flex flex-col gap-2" data-testid="passkey-list">
          {passkeys.map((passkey) => (
            <PasskeyItem
              key={passkey.credentialId}
              passkey={passkey}
              onRename={(name) => rename(passkey, name)}
              onRemove={() => remove(passkey)}
            />
          ))}
        </ul>
      )}
      <SubmitButton type="button" busy={adding} variant={secondaryButtonClass} onClick={() => void add()}>
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
