import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, type Location } from 'react-router';
import { labels, messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { AccountCard } from './AccountCard.tsx';
import { FormAlert } from './FormAlert.tsx';
import { FormField } from './FormField.tsx';
import { linkClass } from './formStyles.ts';
import { SubmitButton } from './SubmitButton.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { useFormSubmit } from './useFormSubmit.ts';

/** What other screens may hand the login page: where to return, a notice to show, the email to fill in. */
export interface LoginLocationState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
  notice?: string;
  email?: string;
}

/** What the login page hands /forgot-password: the email typed so far. */
export interface ForgotPasswordLocationState {
  email?: string;
}

export function LoginPage() {
  useDocumentTitle('Login');
  const session = useAuthSession();
  const navigate = useNavigate();
  const location = useLocation();
  const incoming = (location.state ?? {}) as LoginLocationState;
  // Someone already signed in who opens /login has nothing to do here: home, as after a sign-in.
  // Only on arrival: signing in on this screen moves on by itself (to `from` when there is one).
  const { state: auth } = useAuth();
  const [signedInOnArrival] = useState(auth.status === 'signedIn');
  const [email, setEmail] = useState(incoming.email ?? '');
  const [password, setPassword] = useState('');
  const { error, busy, submitHandler } = useFormSubmit();

  const handleSubmit = submitHandler({
    attempt: () => session.signIn(email, password),
    onFailure: () => messages.loginFailed,
    onSuccess() {
      // Back to the protected screen that sent the person here, else home (docs/product.md).
      const from = incoming.from;
      navigate(from ? `${from.pathname}${from.search}${from.hash}` : paths.home, { replace: true });
    },
  });

  if (signedInOnArrival) return <Navigate to={paths.home} replace />;

  return (
    <AccountCard title={labels.login}>
      {incoming.notice && error === null && (
        <p
          role="status"
          className="mb-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200"
        >
          {incoming.notice}
        </p>
      )}
      <form onSubmit={handleSubmit} className="flex flex-col gap-4">
        <FormAlert message={error} tone="error" />
        <FormField
          label={labels.email}
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <FormField
          label={labels.password}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <p className="text-sm">
          <Link to={paths.forgotPassword} state={{ email } satisfies ForgotPasswordLocationState} className={linkClass}>
            {labels.forgotPasswordLink}
          </Link>
        </p>
        <SubmitButton busy={busy}>{labels.login}</SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm">
        <Link to={paths.signup} className={linkClass}>
          {labels.createAnAccount}
        </Link>
      </p>
    </AccountCard>
  );
}
