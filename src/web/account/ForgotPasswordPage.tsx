import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { accountLabels, accountFixedMessages } from '../../shared/accountTexts.ts';
import { accountMessages } from '../../shared/accountMessages.ts';
import { paths } from '../../shared/routes.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { AccountCard } from './AccountCard.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { FormField } from '../components/FormField.tsx';
import { linkClass } from '../components/formStyles.ts';
import type { ForgotPasswordLocationState, LoginLocationState } from './LoginPage.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

export function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password');
  const session = useAuthSession();
  // The email typed on the login page, so nobody types it twice.
  const incoming = (useLocation().state ?? {}) as ForgotPasswordLocationState;
  const [email, setEmail] = useState(incoming.email ?? '');
  // docs/product.md (Texts): success and failure share one alert box.
  const [outcome, setOutcome] = useState<{ message: string; tone: 'error' | 'success' } | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    setBusy(true);
    try {
      await accountSessionOf(session).sendPasswordResetEmail(email);
      setOutcome({ message: accountFixedMessages.resetLinkSent, tone: 'success' });
    } catch {
      setOutcome({ message: accountFixedMessages.resetFailed, tone: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AccountCard title={accountLabels.forgotPassword}>
      <form onSubmit={handleSubmit} className="flex flex-col gap-4">
        <FormAlert message={outcome?.message ?? null} tone={outcome?.tone ?? 'error'} />
        <FormField
          label={accountLabels.email}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <SubmitButton busy={busy}>{accountLabels.sendResetLink}</SubmitButton>
      </form>
      <p className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
        <Link to={paths.login} state={{ email } satisfies LoginLocationState} className={linkClass}>
          {accountMessages.backToLogin}
        </Link>
        <Link to={paths.signup} className={linkClass}>
          {accountLabels.createAnAccount}
        </Link>
      </p>
    </AccountCard>
  );
}
