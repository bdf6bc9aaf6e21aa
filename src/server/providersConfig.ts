/**
 * The OpenID Connect providers people may sign in with, configured per provider as
 * `OIDC_<ID>_ISSUER`, `OIDC_<ID>_CLIENT_ID`, `OIDC_<ID>_CLIENT_SECRET` (unset: a public client;
 * PKCE is always used) and `OIDC_<ID>_NAME` (the button's label); `OIDC_<ID>_PROVIDER_ID`
 * names the provider id when the default will not do (decision 0340: a Firebase project's
 * `oidc.my-okta`, or a stand-in for `google.com`).
 *
 * Part of the configuration (config.ts reads it with the rest of the environment), so it stands
 * beside config.ts, below identity: identity's providers/ takes the parsed list, never the other way.
 */
export interface IdentityProviderConfig {
  /** The protocol's provider id: `google.com` for Google's issuer, else `oidc.<id in lower case>`. */
  providerId: string;
  /** The `<ID>` of the variables, as written. */
  variableId: string;
  /** The issuer URL as discovery and ID tokens name it (no trailing slash added or removed). */
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** "Continue with NAME". */
  name: string;
}

type Field = 'ISSUER' | 'CLIENT_ID' | 'CLIENT_SECRET' | 'NAME' | 'PROVIDER_ID';

export const GOOGLE_ISSUER = 'https://accounts.google.com';

const VARIABLE = /^OIDC_([A-Z0-9]+(?:_[A-Z0-9]+)*?)_(ISSUER|CLIENT_ID|CLIENT_SECRET|NAME|PROVIDER_ID)$/;
/** Firebase's provider id shapes; the ways in that are not providers are reserved. */
const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9_-]+)+$/;
const RESERVED_IDS = new Set(['password', 'passkey', 'phone', 'anonymous', 'email']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A refusal naming the variable; config.ts turns it into its ConfigError. */
export class ProviderConfigProblem extends Error {
  override name = 'ProviderConfigProblem';
}

/** Every configured provider, in the order of their ids; throws ProviderConfigProblem on a bad one. */
export function parseIdentityProviders(env: NodeJS.ProcessEnv): IdentityProviderConfig[] {
  const byId = new Map<string, Partial<Record<Field, string>>>();
  for (const [key, value] of Object.entries(env)) {
    const match = VARIABLE.exec(key);
    if (!match || value === undefined || value === '') continue;
    const [, id, field] = match as unknown as [string, string, Field];
    byId.set(id, { ...byId.get(id), [field]: value });
  }
  const providers = [...byId.keys()].sort().map((id) => provider(id, byId.get(id)!));
  const seen = new Set<string>();
  for (const each of providers) {
    if (seen.has(each.providerId)) {
      throw new ProviderConfigProblem(
        `OIDC_${each.variableId}_ISSUER names the provider ${each.providerId} a second time`,
      );
    }
    seen.add(each.providerId);
  }
  return providers;
}

function provider(id: string, values: Partial<Record<Field, string>>): IdentityProviderConfig {
  const variable = (field: string) => `OIDC_${id}_${field}`;
  if (values.ISSUER === undefined) throw new ProviderConfigProblem(`${variable('ISSUER')} must be set`);
  if (values.CLIENT_ID === undefined) throw new ProviderConfigProblem(`${variable('CLIENT_ID')} must be set`);
  let url: URL;
  try {
    url = new URL(values.ISSUER);
  } catch {
    throw new ProviderConfigProblem(`${variable('ISSUER')} must be an absolute https:// URL`);
  }
  // Plain http lets anyone on the path swap the provider's keys: only a provider on this machine (tests, development).
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ProviderConfigProblem(
      `${variable('ISSUER')} must be an https:// URL (http:// only for localhost or 127.0.0.1)`,
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ProviderConfigProblem(`${variable('ISSUER')} must not have a query or fragment`);
  }
  const name = (values.NAME ?? defaultName(id, values.ISSUER)).trim();
  if (name.length === 0 || name.length > 40 || /\p{Cc}/u.test(name)) {
    throw new ProviderConfigProblem(`${variable('NAME')} must be 1-40 characters on one line`);
  }
  const providerId =
    values.PROVIDER_ID ?? (values.ISSUER === GOOGLE_ISSUER ? 'google.com' : `oidc.${id.toLowerCase()}`);
  if (!PROVIDER_ID.test(providerId) || providerId.length > 100 || RESERVED_IDS.has(providerId)) {
    throw new ProviderConfigProblem(`${variable('PROVIDER_ID')} must look like google.com or oidc.name`);
  }
  return {
    providerId,
    variableId: id,
    issuer: values.ISSUER,
    clientId: values.CLIENT_ID,
    clientSecret: values.CLIENT_SECRET,
    name,
  };
}

function defaultName(id: string, issuer: string): string {
  if (issuer === GOOGLE_ISSUER) return 'Google';
  const lower = id.toLowerCase().replaceAll('_', ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
