import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams, type Location } from 'react-router';
import { labels } from '../../shared/messages.ts';
import { accountLabels, accountFixedMessages } from '../../shared/accountTexts.ts';
import { providerSignInErrorMessage } from '../../shared/providerSignIn.ts';
import { paths } from '../../shared/routes.ts';
import { siteInfo } from '../components/siteInfo.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { AccountCard } from './AccountCard.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { FormField } from '../components/FormField.tsx';
import { linkClass, secondaryButtonClass } from '../components/formStyles.ts';
import { passkeyMessages } from './passkeyMessages.ts';
import { ProviderButtons } from './ProviderButtons.tsx';
import { browserOffersPasskeyAutofill, cancelPasskeyRequest, PasskeyError, signInWithPasskey } from './passkeys.ts';
import { SubmitButton } from './SubmitButton.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { useFormSubmit } from './useFormSubmit.ts';
import { secondStepOf, type SecondStepNeeded } from '../auth/secondStep.ts';
import { SecondStepField, secondStepFailure, typedCode } from './SecondStepFields.tsx';
import { twoStepMessages } from './twoStepMessages.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

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
  // A sign-in with a provider that failed comes back as /login?error=CODE.
  const [searchParams] = useSearchParams();
  const providerError = providerSignInErrorMessage(searchParams.get('error'));
  // Someone already signed in who opens /login has nothing to do here: home, as after a sign-in.
  // Only on arrival: signing in on this screen moves on by itself (to `from` when there is one).
  const { state: auth } = useAuth();
  const [signedInOnArrival] = useState(auth.status === 'signedIn');
  const [email, setEmail] = useState(incoming.email ?? '');
  const [password, setPassword] = useState('');
  const { error, busy, submitHandler } = useFormSubmit();
  // Two-step verification: the right password leaves the sign-in waiting for a code.
  const [pending, setPending] = useState<SecondStepNeeded | null>(null);
  const [code, setCode] = useState('');
  const [restartNotice, setRestartNotice] = useState<string | null>(null);
  const codeStep = useFormSubmit();
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  // Set once the button is used: the autofill request, maybe still on its way, must not replace it.
  const buttonUsed = useRef(false);

  // Back to the protected screen that sent the person here, else home (docs/product.md).
  const goOn = () => {
    const from = incoming.from;
    void navigate(from ? `${from.pathname}${from.search}${from.hash}` : paths.home, { replace: true });
  };

  const handleSubmit = submitHandler({
    attempt: () => {
      setRestartNotice(null);
      return accountSessionOf(session).signIn(email, password);
    },
    onFailure: (caught) => {
      const step = secondStepOf(caught);
      if (step === undefined) return accountFixedMessages.loginFailed;
      setCode('');
      setPending(step);
      return null;
    },
    onSuccess: goOn,
  });

  const handleCode = codeStep.submitHandler({
    attempt: () => accountSessionOf(session).finishSecondStep(pending!, typedCode(code)),
    onFailure: (caught) => {
      const { message, restart } = secondStepFailure(caught);
      if (!restart) return message;
      setPending(null);
      setPassword('');
      setRestartNotice(message);
      return null;
    },
    onSuccess: goOn,
  });

  // Where the browser can, the email field's autofill offers passkeys too (conditional UI): the
  // request waits until the person picks one there, and ends when the screen does.
  useEffect(() => {
    // Someone already signed in is on their way home (below): no passkey request for them.
    if (signedInOnArrival) return;
    let live = true;
    void (async () => {
      if (!(await browserOffersPasskeyAutofill()) || !live) return;
      try {
        await signInWithPasskey(session, { autofill: true, stillWanted: () => live && !buttonUsed.current });
        if (live) goOn();
      } catch (caught) {
        // Only a passkey the person picked and the server refused is worth saying: the autofill is
        // an extra, so a request replaced by the button's, or a site without passkeys, stays quiet.
        if (live && caught instanceof PasskeyError && caught.failure === 'refused') setPasskeyError(caught.message);
      }
    })();
    return () => {
      live = false;
      void cancelPasskeyRequest();
    };
    // Once per visit of the screen: goOn reads the location it was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session]);

  async function handlePasskey() {
    buttonUsed.current = true;
    setPasskeyError(null);
    setPasskeyBusy(true);
    try {
      await signInWithPasskey(session);
      goOn();
    } catch (caught) {
      setPasskeyError(caught instanceof PasskeyError ? caught.message : passkeyMessages.failed);
      setPasskeyBusy(false);
    }
  }

  if (signedInOnArrival) return <Navigate to={paths.home} replace />;

  if (pending !== null) {
    return (
      <AccountCard title={twoStepMessages.stepTitle}>
        <form onSubmit={handleCode} className="flex flex-col gap-4">
          <p className="text-sm text-slate-700 dark:text-slate-300">{twoStepMessages.stepIntro}</p>
          <FormAlert message={codeStep.error} tone="error" />
          <SecondStepField value={code} onChange={setCode} />
          <SubmitButton busy={codeStep.busy}>{twoStepMessages.verify}</SubmitButton>
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => setPending(null)}
            disabled={codeStep.busy}
          >
            {twoStepMessages.cancel}
          </button>
        </form>
      </AccountCard>
    );
  }

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
        <FormAlert message={error ?? providerError ?? restartNotice} tone="error" />
        <FormField
          label={accountLabels.email}
          type="email"
          name="email"
          autoComplete="username webauthn"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <FormField
          label={accountLabels.password}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <p className="text-sm">
          <Link to={paths.forgotPassword} state={{ email } satisfies ForgotPasswordLocationState} className={linkClass}>
            {accountLabels.forgotPasswordLink}
          </Link>
        </p>
        <SubmitButton busy={busy}>{labels.login}</SubmitButton>
      </form>
      <div className="mt-4 flex flex-col gap-2">
        {/* Only while there is something to say: the form's own alert stays the page's one live region. */}
        {passkeyError !== null && <FormAlert message={passkeyError} tone="error" />}
        <SubmitButton
          type="button"
          busy={passkeyBusy}
          variant={secondaryButtonClass}
          onClick={() => void handlePasskey()}
        >
          {passkeyMessages.signInWithPasskey}
        </SubmitButton>
      </div>
      <ProviderButtons
        continuePath={
          incoming.from ? `${incoming.from.pathname}${incoming.from.search}${incoming.from.hash}` : paths.home
        }
      />
      {/* docs/product.md, Sign-up policy: with sign-up closed there is no account to create. */}
      {siteInfo().signup !== 'closed' && (
        <p className="mt-6 text-center text-sm">
          <Link to={paths.signup} className={linkClass}>
            {accountLabels.createAnAccount}
          </Link>
        </p>
      )}
    </AccountCard>
  );
}
