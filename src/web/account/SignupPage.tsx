import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { labels, messages } from '../../shared/messages.ts';
import { accountMessages } from '../../shared/accountMessages.ts';
import { MAX_DISPLAY_NAME_LENGTH } from '../../shared/identityProtocol.ts';
import { paths } from '../../shared/routes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { AccountCard } from './AccountCard.tsx';
import { FormAlert } from './FormAlert.tsx';
import { FormField } from './FormField.tsx';
import { ProviderButtons } from './ProviderButtons.tsx';
import { linkClass } from './formStyles.ts';
import { SubmitButton } from './SubmitButton.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { useFormSubmit } from './useFormSubmit.ts';
import { usePasswordMinLength } from './usePasswordMinLength.ts';

export function SignupPage() {
  useDocumentTitle('Sign Up');
  const session = useAuthSession();
  const navigate = useNavigate();
  const minLength = usePasswordMinLength();
  // Signed in already on arrival: home, as after signing up (the form's own success moves on by itself).
  const { state: auth } = useAuth();
  const [signedInOnArrival] = useState(auth.status === 'signedIn');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { error, busy, submitHandler } = useFormSubmit();

  const handleSubmit = submitHandler({
    passwords: { password, confirmation },
    attempt: () => session.createUser(email, password),
    onFailure: () => messages.signupFailed,
    // docs/product.md: signup signs the user in, then sets the display name.
    async onSuccess() {
      try {
        await session.updateDisplayName(name.trim());
      } catch {
        // The account exists and is signed in; the name can still be set on the profile screen.
        navigate(paths.profile, { replace: true });
        return;
      }
      navigate(paths.home, { replace: true });
    },
  });

  if (signedInOnArrival) return <Navigate to={paths.home} replace />;

  return (
    <AccountCard title={labels.signUp}>
      <form onSubmit={handleSubmit} className="flex flex-col gap-4">
        <FormAlert message={error} tone="error" />
        <FormField
          label={labels.yourName}
          name="name"
          autoComplete="name"
          required
          maxLength={MAX_DISPLAY_NAME_LENGTH}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <FormField
          label={labels.yourEmail}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <FormField
          label={labels.yourPassword}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormField
          label={labels.confirmYourPassword}
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
        />
        <SubmitButton busy={busy}>{labels.signUp}</SubmitButton>
      </form>
      <ProviderButtons continuePath={paths.home} />
      <p className="mt-6 text-center text-sm">
        {accountMessages.alreadyHaveAccount}{' '}
        <Link to={paths.login} className={linkClass}>
          {labels.login}
        </Link>
      </p>
    </AccountCard>
  );
}
