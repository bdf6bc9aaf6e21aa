import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { labels } from '../../shared/messages.ts';
import { accountLabels, accountFixedMessages } from '../../shared/accountTexts.ts';
import { accountMessages, emailActionMessages } from '../../shared/accountMessages.ts';
import { MAX_DISPLAY_NAME_LENGTH } from '../../shared/identityProtocol.ts';
import { paths } from '../../shared/routes.ts';
import { rolesMessages, SIGNUP_REFUSALS, signupRefusalMessages, type SignupRefusal } from '../../shared/invitations.ts';
import { roleLabels } from '../../shared/roles.ts';
import { AuthError } from '../auth/errorCodes.ts';
import type { RouteNoticeState } from '../components/RouteNotice.tsx';
import { siteInfo } from '../components/siteInfo.ts';
import { useInvitation } from './useInvitation.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { AccountCard } from './AccountCard.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { FormField } from '../components/FormField.tsx';
import { ProviderButtons } from './ProviderButtons.tsx';
import { linkClass } from '../components/formStyles.ts';
import { SubmitButton } from './SubmitButton.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { useFormSubmit } from './useFormSubmit.ts';
import { usePasswordMinLength } from './usePasswordMinLength.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

export function SignupPage() {
  useDocumentTitle('Sign Up');
  const session = useAuthSession();
  const navigate = useNavigate();
  const minLength = usePasswordMinLength();
  // Signed in already on arrival: home, as after signing up (the form's own success moves on by itself).
  const { state: auth } = useAuth();
  const [signedInOnArrival] = useState(auth.status === 'signedIn');
  const [name, setName] = useState('');
  const [typedEmail, setEmail] = useState('');
  const inviteCode = useSearchParams()[0].get('invite');
  const invitation = useInvitation(inviteCode);
  const { signup: policy } = siteInfo();
  // An invitation for one address does not say which: the person types the one it reached.
  const forAddress = invitation.status === 'checked' && invitation.valid && invitation.forAddress;
  const email = typedEmail;
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { error, busy, submitHandler } = useFormSubmit();

  const handleSubmit = submitHandler({
    passwords: { password, confirmation },
    attempt: () => accountSessionOf(session).createUser(email, password, inviteCode ?? undefined),
    onFailure: (caught) => refusalMessage(caught) ?? accountFixedMessages.signupFailed,
    // docs/product.md: signup signs the user in, then sets the display name.
    async onSuccess() {
      try {
        await accountSessionOf(session).updateDisplayName(name.trim());
      } catch {
        // The account exists and is signed in; the name can still be set on the profile screen.
        navigate(paths.profile, { replace: true });
        return;
      }
      // The sign-up mailed a verification link (docs/architecture.md, Sign-in protocol): say where.
      const state: RouteNoticeState = { notice: emailActionMessages.verificationEmailSent(email) };
      navigate(paths.home, { replace: true, state });
    },
  });

  if (signedInOnArrival) return <Navigate to={paths.home} replace />;

  const alreadyHaveAccount = (
    <p className="mt-6 text-center text-sm">
      {accountMessages.alreadyHaveAccount}{' '}
      <Link to={paths.login} className={linkClass}>
        {labels.login}
      </Link>
    </p>
  );
  // docs/product.md, Sign-up policy: the door says it is shut before anyone fills the form in.
  const shut =
    policy === 'closed'
      ? signupRefusalMessages.SIGNUP_CLOSED
      : policy === 'invite' && !inviteCode
        ? signupRefusalMessages.INVITATION_REQUIRED
        : invitation.status === 'checked' && !invitation.valid
          ? signupRefusalMessages[invitation.reason]
          : invitation.status === 'failed'
            ? rolesMessages.loadFailed
            : null;
  if (shut !== null) {
    return (
      <AccountCard title={accountLabels.signUp}>
        <p role="status" className="text-base" data-testid="signup-closed">
          {shut}
        </p>
        {policy === 'open' && inviteCode && (
          <p className="mt-4 text-sm">
            <Link to={paths.signup} className={linkClass}>
              {rolesMessages.signUpWithoutInvitation}
            </Link>
          </p>
        )}
        {alreadyHaveAccount}
      </AccountCard>
    );
  }
  if (invitation.status === 'checking') {
    return (
      <AccountCard title={accountLabels.signUp}>
        <p role="status">{rolesMessages.checkingInvitation}</p>
      </AccountCard>
    );
  }

  return (
    <AccountCard title={accountLabels.signUp}>
      <form onSubmit={handleSubmit} className="flex flex-col gap-4">
        {invitation.status === 'checked' && invitation.valid && (
          <p
            className="rounded-md border border-blue-300 bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100"
            data-testid="invitation-role"
          >
            {rolesMessages.invitedAs(roleLabels[invitation.role])}
            {forAddress && ` ${rolesMessages.forAddress}`}
          </p>
        )}
        <FormAlert message={error} tone="error" />
        <FormField
          label={accountLabels.yourName}
          name="name"
          autoComplete="name"
          required
          maxLength={MAX_DISPLAY_NAME_LENGTH}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <FormField
          label={accountLabels.yourEmail}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <FormField
          label={accountLabels.yourPassword}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormField
          label={accountLabels.confirmYourPassword}
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
        />
        <SubmitButton busy={busy}>{accountLabels.signUp}</SubmitButton>
      </form>
      {/* A provider creates an account under the open policy; an invitation is used with the form. */}
      {policy === 'open' && !inviteCode && <ProviderButtons continuePath={paths.home} />}
      {alreadyHaveAccount}
    </AccountCard>
  );
}

/** The sign-up policy's refusal (sign-up closed, an invitation used meanwhile...) in words; null for other failures. */
function refusalMessage(caught: unknown): string | null {
  if (!(caught instanceof AuthError) || caught.code !== 'admin-restricted-operation') return null;
  const reason = SIGNUP_REFUSALS.find((known) => known === caught.detail);
  return signupRefusalMessages[reason ?? ('SIGNUP_CLOSED' satisfies SignupRefusal)];
}
