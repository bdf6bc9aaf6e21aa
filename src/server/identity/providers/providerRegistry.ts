import type { IdentityProviderConfig } from '../../providersConfig.ts';
import { createRelyingParty, type RelyingParty } from './relyingParty.ts';

/** The browser flow's callback for a provider: the redirect_uri registered with it. */
export const callbackUrl = (publicUrl: string, providerId: string) =>
  `${publicUrl}/identity/oauth/${encodeURIComponent(providerId)}/callback`;

/** The configured providers by provider id; an id not here is OPERATION_NOT_ALLOWED. */
export function createProviderRegistry(deps: {
  providers: IdentityProviderConfig[];
  publicUrl: string;
  keyRefreshCooldownMs: number;
  now: () => number;
}) {
  const parties = new Map<string, RelyingParty>(
    deps.providers.map((provider) => [
      provider.providerId,
      createRelyingParty(provider, {
        redirectUri: callbackUrl(deps.publicUrl, provider.providerId),
        keyRefreshCooldownMs: deps.keyRefreshCooldownMs,
        now: deps.now,
      }),
    ]),
  );
  return {
    get: (providerId: string): RelyingParty | undefined => parties.get(providerId),
    list: () => [...parties.values()].map((party) => ({ providerId: party.providerId, name: party.name })),
  };
}

export type ProviderRegistry = ReturnType<typeof createProviderRegistry>;
