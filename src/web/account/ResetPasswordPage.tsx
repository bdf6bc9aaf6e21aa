import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { accountMessages } from '../../shared/accountMessages.ts';
import { paths } from '../../shared/routes.ts';
import { hasCode } from '../auth/errorCodes.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { AccountCard } from './AccountCard.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { FormField } from '../components/FormField.tsx';
import { linkClass } from '../components/formStyles.ts';
import type { LoginLocationState } from './LoginPage.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { useFormSubmit } from './useFormSubmit.ts';
import { usePasswordMinLength } from './usePasswordMinLength.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

type CodeCheck =
  | { status: 'checking' }
  | { status: 'valid'; email: string }
  | { status: 'dead'; message: string }
  | { status: 'unreachable' };

const isDeadCode = (error: unknown) => hasCode(error, 'expired-action-code') || hasCode(error, 'invalid-action-code');

/** Where the reset email links to (docs/product.md): shows the account, sets a new password, then to /login. */
export function ResetPasswordPage() {
  useDocumentTitle('Reset Password');
  const session = useAuthSession();
  const navigate = useNavigate();
  const minLength = usePasswordMinLength();
  const [searchParams] = useSearchParams();
  const oobCode = searchParams.get('oobCode') ?? '';
  const [check, setCheck] = useState<CodeCheck>(() =>
    oobCode === '' ? { status: 'dead', message: accountMessages.resetLinkMissing } : { status: 'checking' },
  );
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { error, busy, submitHandler } = useFormSubmit();

  useEffect(() => {
    if (oobCode === '') return;
    let current = true;
    accountSessionOf(session)
      .verifyPasswordResetCode(oobCode)
      .then(
        (email) => current && setCheck({ status: 'valid', email }),
        (caught: unknown) =>
          current &&
          setCheck(
            isDeadCode(caught)
              ? { status: 'dead', message: accountMessages.resetLinkInvalid }
              : { status: 'unreachable' },
          ),
      );
    return () => {
      current = false;
    };
  }, [oobCode, session]);

  const handleSubmit = submitHandler({
    passwords: { password, confirmation },
    attempt: () => accountSessionOf(session).confirmPasswordReset(oobCode, password),
    onFailure(caught) {
      if (isDeadCode(caught)) {
        setCheck({ status: 'dead', message: accountMessages.resetLinkInvalid });
        return null;
      }
      return hasCode(caught, 'weak-password')
        ? accountMessages.passwordTooShort(minLength)
        : accountMessages.resetApplyFailed;
    },
    onSuccess() {
      // The login form opens with this account's email filled in: only the new password to type.
      const state: LoginLocationState = {
        notice: accountMessages.passwordChanged,
        email: check.status === 'valid' ? check.email : undefined,
      };
      navigate(paths.login, { replace: true, state });
    },
  });

  return (
    <AccountCard title="Reset Password">
      {check.status === 'checking' && <p aria-busy="true" className="min-h-24" />}
      {check.status === 'unreachable' && <FormAlert message={accountMessages.resetCheckFailed} tone="error" />}
      {check.status === 'dead' && (
        <>
          <FormAlert message={check.message} tone="error" />
          <p className="mt-4 text-sm">
            <Link to={paths.forgotPassword} className={linkClass}>
              {accountMessages.requestNewResetLink}
            </Link>
          </p>
        </>
      )}
      {check.status === 'valid' && (
        <form onSubmit={handleSubmit} className="flex flex-col gap-4">
          <p className="text-sm">
            Account: <strong data-testid="reset-email">{check.email}</strong>
          </p>
          <FormAlert message={error} tone="error" />
          {/* Lets password managers file the new password under the right account. */}
          <input type="email" name="email" autoComplete="username" value={check.email} readOnly hidden />
          <FormField
            label="New password"
            type="password"
            name="newPassword"
            autoComplete="new-password"
            required
            minLength={minLength}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <FormField
            label="Confirm new password"
            type="password"
            name="confirmNewPassword"
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
          />
          <SubmitButton busy={busy}>Reset Password</SubmitButton>
        </form>
      )}
    </AccountCard>
  );
}
