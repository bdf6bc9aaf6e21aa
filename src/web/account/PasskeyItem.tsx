import { useId, useState, type FormEvent } from 'react';
import { MAX_PASSKEY_NAME_LENGTH, type PasskeyView } from '../../shared/passkeyProtocol.ts';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../components/formStyles.ts';
import { passkeyMessages } from './passkeyMessages.ts';
import { SubmitButton } from './SubmitButton.tsx';

const when = (epochMs: string) =>
  new Date(Number(epochMs)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const smallButton = (variant: string) => `${variant} !w-auto`;

interface Props {
  passkey: PasskeyView;
  /** Resolve when done, reject on failure; the section says how it went either way. */
  onRename(name: string): Promise<void>;
  onRemove(): Promise<void>;
}

/** One passkey on the profile: its name, when it was added and last used, Rename and Remove. */
export function PasskeyItem({ passkey, onRename, onRemove }: Props) {
  const inputId = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState<'rename' | 'remove' | null>(null);

  async function run(what: 'rename' | 'remove', action: () => Promise<void>) {
    setBusy(what);
    try {
      await action();
    } catch {
      // Already said by the section; the item stays as it was (the rename form stays open).
    } finally {
      setBusy(null);
    }
  }

  function handleRename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = (draft ?? '').trim();
    if (name === '' || name === passkey.name) {
      setDraft(null);
      return;
    }
    void run('rename', async () => {
      await onRename(name);
      setDraft(null);
    });
  }

  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800">
      {draft === null ? (
        <div className="flex items-center justify-between gap-3">
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
          <div className="flex shrink-0 flex-col gap-2 sm:flex-row">
            <button
              type="button"
              className={smallButton(secondaryButtonClass)}
              aria-label={passkeyMessages.renameLabel(passkey.name)}
              onClick={() => setDraft(passkey.name)}
              disabled={busy !== null}
            >
              {passkeyMessages.rename}
            </button>
            <SubmitButton
              type="button"
              busy={busy === 'remove'}
              variant={smallButton(secondaryButtonClass)}
              aria-label={passkeyMessages.removeLabel(passkey.name)}
              onClick={() => void run('remove', onRemove)}
            >
              {passkeyMessages.remove}
            </SubmitButton>
          </div>
        </div>
      ) : (
        <form onSubmit={handleRename} className="flex flex-col gap-2">
          <label htmlFor={inputId} className="text-sm font-medium">
            {passkeyMessages.nameLabel}
          </label>
          <input
            id={inputId}
            dir="auto"
            className={inputClass}
            value={draft}
            maxLength={MAX_PASSKEY_NAME_LENGTH}
            required
            autoFocus
            onChange={(event) => setDraft(event.target.value)}
          />
          <div className="flex gap-2">
            <SubmitButton busy={busy === 'rename'} variant={smallButton(primaryButtonClass)}>
              {passkeyMessages.saveName}
            </SubmitButton>
            <button
              type="button"
              className={smallButton(secondaryButtonClass)}
              onClick={() => setDraft(null)}
              disabled={busy !== null}
            >
              {passkeyMessages.cancelRename}
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
