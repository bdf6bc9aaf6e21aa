import { providerStartPath } from '../../shared/providerSignIn.ts';
import { localStorageSessionHint } from '../auth/sessionHint.ts';
import { secondaryButtonClass } from '../components/formStyles.ts';
import { signInMethodMessages } from './signInMethodMessages.ts';
import { useSignInProviders } from '../auth/signInProviders.ts';

/**
 * "Continue with NAME" for each configured provider, under the login and sign-up forms: plain
 * links, since the browser leaves for the provider and comes back through the server.
 */
/**
 * The browser comes back with a session cookie the page cannot see: the note that it may hold
 * one makes the app ask the server for it at load (an anonymous page otherwise skips that).
 */
function expectSessionOnReturn() {
  localStorageSessionHint(typeof localStorage === 'object' ? localStorage : undefined).remember(true);
}

export function ProviderButtons({ continuePath }: { continuePath: string }) {
  const providers = useSignInProviders();
  if (providers.length === 0) return null;
  return (
    <div className="mt-4 flex flex-col gap-2" data-testid="provider-buttons">
      {providers.map((provider) => (
        <a
          key={provider.providerId}
          href={providerStartPath(provider.providerId, continuePath)}
          className={secondaryButtonClass}
          onClick={expectSessionOnReturn}
        >
          {signInMethodMessages.continueWith(provider.name)}
        </a>
      ))}
    </div>
  );
}
