import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { accountMessages } from '../../shared/accountMessages.ts';
import type { MfaInfo } from '../../shared/twoStepProtocol.ts';
import { hasCode } from '../auth/errorCodes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { siteInfo } from '../components/siteInfo.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { FormField } from '../components/FormField.tsx';
import { dangerButtonClass, secondaryButtonClass } from '../components/formStyles.ts';
import { PasswordDialog } from './PasswordDialog.tsx';
import { QrCode } from './QrCode.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { typedCode } from './SecondStepFields.tsx';
import {
  finishEnrollment,
  otpauthUri,
  startEnrollment,
  twoStepFactor,
  withdraw,
  type StartedEnrollment,
} from './twoStep.ts';
import { twoStepMessages } from './twoStepMessages.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

type Outcome = { message: string; tone: 'error' | 'success' } | null;
type Stage = { name: 'idle' } | { name: 'setup'; started: StartedEnrollment } | { name: 'codes'; codes: string[] };

/** The profile's Two-step verification section: turn it on (QR code, key, a code, recovery codes) and off. */
export function TwoStepSection() {
  const session = useAuthSession();
  const { state } = useAuth();
  const headingId = useId();
  const [factor, setFactor] = useState<MfaInfo | null | undefined>(undefined);
  const [stage, setStage] = useState<Stage>({ name: 'idle' });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState('');
  // Which action waits for a recent sign-in.
  const [reauthenticating, setReauthenticating] = useState<'on' | 'off' | null>(null);

  const reload = useCallback(async () => {
    try {
      setFactor(await twoStepFactor(session));
    } catch {
      setOutcome({ message: twoStepMessages.failed, tone: 'error' });
    }
  }, [session]);

  useEffect(() => {
    void reload();
  }, [reload]);

  function failed(error: unknown, action: 'on' | 'off') {
    if (hasCode(error, 'requires-recent-login')) setReauthenticating(action);
    else if (hasCode(error, 'unverified-email'))
      setOutcome({ message: twoStepMessages.unverifiedEmail, tone: 'error' });
    else if (hasCode(error, 'invalid-verification-code'))
      setOutcome({ message: twoStepMessages.wrongCode, tone: 'error' });
    else if (hasCode(error, 'code-expired')) {
      setStage({ name: 'idle' });
      setOutcome({ message: twoStepMessages.expired, tone: 'error' });
    } else setOutcome({ message: twoStepMessages.failed, tone: 'error' });
  }

  async function turnOn() {
    setBusy(true);
    setOutcome(null);
    try {
      setCode('');
      setStage({ name: 'setup', started: await startEnrollment(session) });
    } catch (error) {
      failed(error, 'on');
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (stage.name !== 'setup') return;
    setBusy(true);
    setOutcome(null);
    try {
      const codes = await finishEnrollment(session, stage.started, typedCode(code));
      setStage({ name: 'codes', codes });
      setOutcome({ message: twoStepMessages.turnedOnNotice, tone: 'success' });
      await reload();
    } catch (error) {
      failed(error, 'on');
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    if (!factor) return;
    setBusy(true);
    setOutcome(null);
    try {
      await withdraw(session, factor.mfaEnrollmentId);
      await reload();
      setOutcome({ message: twoStepMessages.turnedOffNotice, tone: 'success' });
    } catch (error) {
      failed(error, 'off');
    } finally {
      setBusy(false);
    }
  }

  async function reauthenticateAndGoOn(password: string | null) {
    if (password !== null) {
      try {
        await accountSessionOf(session).reauthenticate(password);
      } catch (error) {
        throw new Error(hasCode(error, 'invalid-credential') ? accountMessages.wrongPassword : twoStepMessages.failed, {
          cause: error,
        });
      }
    }
    const action = reauthenticating;
    setReauthenticating(null);
    await (action === 'off' ? turnOff() : turnOn());
  }

  const email = state.user?.email ?? '';
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 id={headingId} className="text-base font-semibold">
        {twoStepMessages.sectionTitle}
      </h3>
      <p className="text-sm text-slate-700 dark:text-slate-300">{twoStepMessages.sectionIntro}</p>
      {outcome !== null && <FormAlert message={outcome.message} tone={outcome.tone} />}
      {factor !== undefined && stage.name !== 'codes' && (
        <p className="text-sm font-medium" data-testid="two-step-status">
          {factor ? twoStepMessages.on : twoStepMessages.off}
        </p>
      )}
      {stage.name === 'setup' && (
        <form onSubmit={(event) => void confirm(event)} className="flex flex-col gap-3">
          <p className="text-sm text-slate-700 dark:text-slate-300">{twoStepMessages.scan}</p>
          <QrCode text={otpauthUri(stage.started.secret, email, siteInfo().title)} label={twoStepMessages.qrLabel} />
          <div>
            <p className="text-sm font-medium">{twoStepMessages.secretLabel}</p>
            <code data-testid="two-step-secret" className="mt-1 block font-mono text-sm break-words select-all">
              {stage.started.secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
          </div>
          <FormField
            label={twoStepMessages.codeLabel}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            required
            hint={twoStepMessages.enrollCodeHint}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <div className="flex flex-col gap-2 sm:flex-row-reverse">
            <SubmitButton busy={busy}>{twoStepMessages.confirm}</SubmitButton>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={busy}
              onClick={() => setStage({ name: 'idle' })}
            >
              {twoStepMessages.cancel}
            </button>
          </div>
        </form>
      )}
      {stage.name === 'codes' && <RecoveryCodes codes={stage.codes} onDone={() => setStage({ name: 'idle' })} />}
      {stage.name === 'idle' && factor === null && (
        <SubmitButton type="button" busy={busy} variant={secondaryButtonClass} onClick={() => void turnOn()}>
          {twoStepMessages.turnOn}
        </SubmitButton>
      )}
      {stage.name === 'idle' && factor && (
        <SubmitButton type="button" busy={busy} variant={dangerButtonClass} onClick={() => void turnOff()}>
          {twoStepMessages.turnOff}
        </SubmitButton>
      )}
      <PasswordDialog
        open={reauthenticating !== null}
        title={accountMessages.confirmItsYou}
        description={reauthenticating === 'off' ? twoStepMessages.reauthenticateOff : twoStepMessages.reauthenticateOn}
        confirmLabel={accountMessages.confirm}
        onConfirm={reauthenticateAndGoOn}
        onCancel={() => setReauthenticating(null)}
      />
    </section>
  );
}
