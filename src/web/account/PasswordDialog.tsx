import { keepTabInside } from '../components/keepTabInside.ts';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { passkeyMessages } from './passkeyMessages.ts';
import { browserHasPasskeys, reauthenticateWithPasskey } from './passkeys.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { FormField } from '../components/FormField.tsx';
import { dangerButtonClass, primaryButtonClass, secondaryButtonClass } from '../components/formStyles.ts';
import { SubmitButton } from './SubmitButton.tsx';
import { secondStepOf, type SecondStepNeeded } from '../auth/secondStep.ts';
import { SecondStepField, secondStepFailure, typedCode } from './SecondStepFields.tsx';
import { accountSessionOf } from '../auth/accountSession.ts';

interface Props {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  danger?: boolean;
  /** Offer "Use a passkey instead" where the browser has passkeys (default true). */
  offerPasskey?: boolean;
  /**
   * Resolves when done; rejects with the text to show (the dialog then stays open). `null`: the
   * person proved it with a passkey instead, and the session is already re-authenticated.
   */
  onConfirm(password: string | null): Promise<void>;
  onCancel(): void;
}

/**
 * Asks for the current password in a modal <dialog>: showModal() makes the page behind it inert
 * (focus stays inside) and Escape cancels it. Where the browser has passkeys, one may be used instead.
 */
export function PasswordDialog({
  open,
  title,
  description,
  confirmLabel,
  danger,
  offerPasskey = true,
  onConfirm,
  onCancel,
}: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Two-step verification on: after the password, the dialog asks for a code.
  const [pending, setPending] = useState<SecondStepNeeded | null>(null);
  const [code, setCode] = useState('');
  const session = useAuthSession();

  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open && !element.open) {
      setPassword('');
      setError(null);
      setPending(null);
      setCode('');
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  async function confirm(proof: () => Promise<string | null>) {
    setBusy(true);
    setError(null);
    try {
      await onConfirm(await proof());
    } catch (caught) {
      const step = secondStepOf(caught);
      if (step !== undefined) setPending(step);
      else setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending === null) {
      void confirm(async () => password);
      return;
    }
    void confirm(async () => {
      try {
        await accountSessionOf(session).finishSecondStep(pending, typedCode(code));
      } catch (caught) {
        const { message, restart } = secondStepFailure(caught);
        if (restart) setPending(null);
        throw new Error(message, { cause: caught });
      }
      // The session is re-authenticated already, as after a passkey.
      return null;
    });
  }

  const usePasskey = () =>
    void confirm(async () => {
      await reauthenticateWithPasskey(session);
      return null;
    });

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onKeyDown={keepTabInside}
      onCancel={(event) => {
        event.preventDefault(); // React state decides when it closes
        if (!busy) onCancel();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-sm rounded-lg border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-950/60 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100"
    >
      <form onSubmit={handleSubmit} className="flex flex-col gap-4">
        <h2 id={titleId} className="text-xl font-semibold">
          {title}
        </h2>
        <p id={descriptionId} className="text-sm text-slate-700 dark:text-slate-300">
          {description}
        </p>
        <FormAlert message={error} tone="error" />
        {open && pending !== null && <SecondStepField value={code} onChange={setCode} />}
        {open && pending === null && (
          <FormField
            label="Current password"
            type="password"
            name="currentPassword"
            autoComplete="current-password"
            required
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
        <div className="flex flex-col gap-2 sm:flex-row-reverse">
          <SubmitButton busy={busy} variant={danger ? dangerButtonClass : primaryButtonClass}>
            {confirmLabel}
          </SubmitButton>
          <button type="button" className={secondaryButtonClass} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        </div>
        {open && pending === null && offerPasskey && browserHasPasskeys() && (
          <button type="button" className={secondaryButtonClass} onClick={usePasskey} disabled={busy}>
            {passkeyMessages.usePasskey}
          </button>
        )}
      </form>
    </dialog>
  );
}
