import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** What the test provider says about a person who signs in there (its login is the `sub`). */
export interface TestPerson {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

export interface TestOidcProvider {
  /** http://127.0.0.1:PORT — an issuer Inkwell accepts over http because it is on loopback. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people the provider knows, by login (= sub); a login not listed gets `<login>@provider.test`, verified. */
  people: Map<string, TestPerson>;
  /** An ID token signed with the provider's own key, as its token endpoint would issue one. */
  idToken(claims: Record<string, unknown>, options?: { key?: 'provider' | 'stranger'; kid?: string }): Promise<string>;
  /** Publishes a new signing key (the old one stays listed), as a provider's key rotation does. */
  rotateKey(): Promise<void>;
  /** How often the key set (jwks_uri) was fetched. */
  jwksFetches(): number;
  /** The configuration variables naming this provider under `<ID>`. */
  env(id: string, name?: string): Record<string, string>;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  privateJwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' } };
}

/**
 * A real OpenID provider (the `oidc-provider` package, with its development login and consent
 * pages: any login and password are accepted) on a loopback port, for tests; never the internet.
 * `redirectUris` are the callbacks its one client may use.
 */
export async function startTestOidcProvider(options: {
  redirectUris: string[];
  /** A fixed port (browser tests configure the app before it starts); 0 or unset: any free one. */
  port?: number;
}): Promise<TestOidcProvider> {
  const clientId = 'inkwell-test-client';
  const clientSecret = 'inkwell-test-client-secret-0123456789';
  const people = new Map<string, TestPerson>();
  const keys: SigningKey[] = [await newKey('test-key-1')];
  const stranger = await newKey('test-key-1');
  let jwksFetches = 0;

  // Bound first so the provider knows its own issuer URL (the port).
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let provider = build();
  function build(): Provider {
    const built = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: options.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: keys.map((key) => key.privateJwk) },
      cookies: { keys: ['test-provider-cookie-key-0123456789'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
      // The ID token carries the scopes' claims (what a relying party reads), as Google's does.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => ({
          sub,
          ...(people.get(sub) ?? { email: `${sub}@provider.test`, email_verified: true }),
        }),
      }),
    });
    return built;
  }

  server.on('request', (request, response) => {
    if (request.url?.startsWith('/jwks')) jwksFetches += 1;
    void provider.callback()(request, response);
  });

  const sign = (claims: Record<string, unknown>, key: SigningKey, kid: string) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iat: now, exp: now + 3600, iss: issuer, aud: clientId, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .sign(key.privateKey);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    idToken: (claims, signOptions = {}) => {
      const key = signOptions.key === 'stranger' ? stranger : keys.at(-1)!;
      return sign(claims, key, signOptions.kid ?? key.kid);
    },
    async rotateKey() {
      keys.push(await newKey(`test-key-${keys.length + 1}`));
      provider = build();
    },
    jwksFetches: () => jwksFetches,
    env: (id, name) => ({
      [`OIDC_${id}_ISSUER`]: issuer,
      [`OIDC_${id}_CLIENT_ID`]: clientId,
      [`OIDC_${id}_CLIENT_SECRET`]: clientSecret,
      ...(name !== undefined ? { [`OIDC_${id}_NAME`]: name } : {}),
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
