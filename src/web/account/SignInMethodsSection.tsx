import { useCallback, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ProviderUserInfo } from '../../shared/identityProtocol.ts';
import { providerSignInErrorMessage } from '../../shared/providerSignIn.ts';
import { AuthError, hasCode } from '../auth/errorCodes.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { listPasskeys } from './passkeys.ts';
import { secondaryButtonClass } from '../components/formStyles.ts';
import { signInMethodMessages as text } from './signInMethodMessages.ts';
import { connectProvider, disconnectProvider, signInMethodsOf, useSignInProviders } from '../auth/signInProviders.ts';
import { SubmitButton } from './SubmitButton.tsx';

type Outcome = { message: string; tone: 'error' | 'success' } | null;

const rowClass =
  'flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800';

function messageOf(error: unknown): string {
  if (error instanceof AuthError && error.serverCode === 'LAST_SIGN_IN_METHOD') return text.lastMethod;
  if (hasCode(error, 'requires-recent-login')) return text.signInAgain;
  return text.failed;
}

/**
 * The profile's Sign-in methods: the password, the passkeys, and each configured provider with
 * Connect (the browser goes to the provider and comes back here) or Disconnect (never the last way in).
 */
export function SignInMethodsSection() {
  const session = useAuthSession();
  const headingId = useId();
  const providers = useSignInProviders();
  const [methods, setMethods] = useState<ProviderUserInfo[] | null>(null);
  const [passkeyCount, setPasskeyCount] = useState<number | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // A Connect that failed comes back as /profile?error=CODE.
  const [searchParams] = useSearchParams();
  const returned = providerSignInErrorMessage(searchParams.get('error'));
  const [outcome, setOutcome] = useState<Outcome>(returned === undefined ? null : { message: returned, tone: 'error' });

  const reload = useCallback(async () => {
    try {
      const [loaded, passkeys] = await Promise.all([signInMethodsOf(session), listPasskeys(session)]);
      setMethods(loaded);
      setPasskeyCount(passkeys.length);
    } catch {
      setOutcome({ message: text.loadFailed, tone: 'error' });
    }
  }, [session]);

  useEffect(() => {
    void reload();
  }, [reload]);

  async function connect(providerId: string) {
    setBusy(providerId);
    setOutcome(null);
    try {
      await connectProvider(session, providerId);
      // The browser is leaving for the provider: the button stays busy until it does.
    } catch (error) {
      setOutcome({ message: messageOf(error), tone: 'error' });
      setBusy(null);
    }
  }

  async function disconnect(providerId: string, name: string) {
    setBusy(providerId);
    setOutcome(null);
    try {
      await disconnectProvider(session, providerId);
      await reload();
      setOutcome({ message: text.disconnected(name), tone: 'success' });
    } catch (error) {
      setOutcome({ message: messageOf(error), tone: 'error' });
    } finally {
      setBusy(null);
    }
  }

  const linked = (providerId: string) => methods?.find((method) => method.providerId === providerId);
  const hasPassword = methods?.some((method) => method.providerId === 'password') ?? false;

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800"
      data-testid="sign-in-methods"
    >
      <h3 id={headingId} className="text-base font-semibold">
        {text.sectionTitle}
      </h3>
      <p className="text-sm text-slate-700 dark:text-slate-300">{text.sectionIntro}</p>
      {outcome !== null && <FormAlert message={outcome.message} tone={outcome.tone} />}
      {methods !== null && (
        <ul className="flex flex-col gap-2">
          <li className={rowClass}>
            <span className="font-medium">{text.password}</span>
            <span className="text-sm text-slate-700 dark:text-slate-300">
              {hasPassword ? text.passwordSet : text.passwordNotSet}
            </span>
          </li>
          <li className={rowClass}>
            <span className="font-medium">{text.passkeys}</span>
            <span className="text-sm text-slate-700 dark:text-slate-300">{text.passkeyCount(passkeyCount ?? 0)}</span>
          </li>
          {providers.map((provider) => {
            const link = linked(provider.providerId);
            return (
              <li key={provider.providerId} className={rowClass} data-testid={`provider-${provider.providerId}`}>
                <span className="flex flex-col">
                  <span className="font-medium">{provider.name}</span>
                  <span className="text-sm break-all text-slate-700 dark:text-slate-300" dir="auto">
                    {link ? text.connected(link.email) : text.notConnected}
                  </span>
                </span>
                <span className="w-full sm:w-auto">
                  <SubmitButton
                    type="button"
                    busy={busy === provider.providerId}
                    variant={`${secondaryButtonClass} sm:w-auto`}
                    aria-label={link ? text.disconnectLabel(provider.name) : text.connectLabel(provider.name)}
                    onClick={() =>
                      void (link ? disconnect(provider.providerId, provider.name) : connect(provider.providerId))
                    }
                  >
                    {link ? text.disconnect : text.connect}
                  </SubmitButton>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
