import { useEffect, useState } from 'react';
import type { LookupResponse, ProviderUserInfo } from '../../shared/identityProtocol.ts';
import type {
  ProviderLinkStartResponse,
  SignInProvider,
  SignInProvidersResponse,
} from '../../shared/providerSignIn.ts';
import type { AuthSession } from './authSession.ts';
import { AuthError } from './errorCodes.ts';
import { accountSessionOf } from './accountSession.ts';

let providers: Promise<SignInProvider[]> | undefined;

/** The configured providers (one request per page load); none when the list cannot be read. */
export function loadSignInProviders(): Promise<SignInProvider[]> {
  providers ??= fetch('/identity/oauth/providers')
    .then(async (response) => (response.ok ? ((await response.json()) as SignInProvidersResponse).providers : []))
    .catch(() => {
      providers = undefined; // ask again next time
      return [];
    });
  return providers;
}

/** The configured providers, once known (an empty list until then). */
export function useSignInProviders(): SignInProvider[] {
  const [list, setList] = useState<SignInProvider[]>([]);
  useEffect(() => {
    let live = true;
    void loadSignInProviders().then((loaded) => live && setList(loaded));
    return () => {
      live = false;
    };
  }, []);
  return list;
}

async function idTokenOf(session: AuthSession): Promise<string> {
  const idToken = await session.getIdToken();
  if (idToken === null) throw new AuthError('user-token-expired');
  return idToken;
}

/** The signed-in account's ways in, as accounts:lookup lists them (password, linked providers). */
export async function signInMethodsOf(session: AuthSession): Promise<ProviderUserInfo[]> {
  const answer = await accountSessionOf(session).callIdentity<LookupResponse>('v1/accounts:lookup', {
    idToken: await idTokenOf(session),
  });
  return answer.users[0]?.providerUserInfo ?? [];
}

/** Connect: the server records whom to link, then the browser goes to the provider (and back to /profile). */
export async function connectProvider(session: AuthSession, providerId: string): Promise<void> {
  const answer = await accountSessionOf(session).callIdentity<ProviderLinkStartResponse>(
    `oauth/${encodeURIComponent(providerId)}/start`,
    { idToken: await idTokenOf(session), continue: '/profile' },
  );
  window.location.assign(answer.authUri);
}

/** Disconnect: the server refuses to remove the last way to sign in (LAST_SIGN_IN_METHOD). */
export async function disconnectProvider(session: AuthSession, providerId: string): Promise<void> {
  await accountSessionOf(session).callIdentity('v1/accounts:update', {
    idToken: await idTokenOf(session),
    deleteProvider: [providerId],
  });
}
