import { useEffect, useState } from 'react';
import { emailActionMessages } from '../../shared/accountMessages.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { secondaryButtonClass } from '../components/formStyles.ts';
import { SubmitButton } from './SubmitButton.tsx';
import { accountSessionOf } from '../auth/accountSession.ts';

type Outcome = { message: string; tone: 'error' | 'success' } | null;

const STATUS_LABEL = 'Email status: ';

/**
 * The profile's verification state (docs/product.md, Screens): whether the address is verified, and a Send
 * verification email button when it is not. Asked of the server whenever the address changes
 * (a change makes it unverified).
 */
export function EmailVerification({ email }: { email: string }) {
  const session = useAuthSession();
  const [verified, setVerified] = useState<boolean | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setVerified(null);
    setOutcome(null);
    // Unknown (server unreachable): nothing is shown rather than a guess.
    accountSessionOf(session)
      .isEmailVerified()
      .then(
        (answer) => current && setVerified(answer),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [session, email]);

  async function send() {
    setBusy(true);
    setOutcome(null);
    try {
      await accountSessionOf(session).sendEmailVerification();
      setOutcome({ message: emailActionMessages.verificationEmailSent(email), tone: 'success' });
    } catch {
      setOutcome({ message: emailActionMessages.verificationEmailFailed, tone: 'error' });
    } finally {
      setBusy(false);
    }
  }

  // Until the server answers, the status line's height is kept (invisible), so the Update
  // Profile and Log Out buttons below do not move when it arrives: a button moving under a
  // pointer or a finger is pressed where the other one was (decision 0894).
  if (verified === null) {
    return (
      <p aria-hidden="true" className="invisible text-sm" data-testid="email-verification-pending">
        {STATUS_LABEL}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm">
        <span className="font-medium text-slate-600 dark:text-slate-400">{STATUS_LABEL}</span>
        <span data-testid="email-verification">
          {verified ? emailActionMessages.emailVerifiedLabel : emailActionMessages.emailNotVerifiedLabel}
        </span>
      </p>
      {!verified && (
        <>
          {/* A polite status region, not the profile form's alert: one alert per screen. */}
          <p
            role="status"
            data-testid="email-verification-outcome"
            className={
              outcome?.tone === 'error'
                ? 'text-sm text-red-800 dark:text-red-200'
                : 'text-sm text-green-800 dark:text-green-200'
            }
          >
            {outcome?.message ?? ''}
          </p>
          <SubmitButton type="button" busy={busy} variant={secondaryButtonClass} onClick={() => void send()}>
            {emailActionMessages.sendVerificationEmail}
          </SubmitButton>
        </>
      )}
    </div>
  );
}
