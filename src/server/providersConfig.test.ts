import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/inkwell-config-test', ...env });

describe('OIDC_<ID>_* configuration', () => {
  it('names Google google.com and any other provider oidc.<id in lower case>, with its button label', () => {
    const config = load({
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_GOOGLE_CLIENT_ID: 'google-client',
      OIDC_GOOGLE_CLIENT_SECRET: 'google-secret',
      OIDC_KEYCLOAK_ISSUER: 'https://sso.example.com/realms/main',
      OIDC_KEYCLOAK_CLIENT_ID: 'inkwell',
      OIDC_KEYCLOAK_NAME: 'Example SSO',
    });
    expect(config.identityProviders).toEqual([
      {
        providerId: 'google.com',
        variableId: 'GOOGLE',
        issuer: 'https://accounts.google.com',
        clientId: 'google-client',
        clientSecret: 'google-secret',
        name: 'Google',
      },
      {
        providerId: 'oidc.keycloak',
        variableId: 'KEYCLOAK',
        issuer: 'https://sso.example.com/realms/main',
        clientId: 'inkwell',
        clientSecret: undefined,
        name: 'Example SSO',
      },
    ]);
    expect(load({}).identityProviders).toEqual([]);
  });

  it('refuses an http:// issuer unless it is on localhost or 127.0.0.1', () => {
    expect(() => load({ OIDC_X_ISSUER: 'http://sso.example.com', OIDC_X_CLIENT_ID: 'c' })).toThrow(
      new ConfigError(
        'Invalid configuration: OIDC_X_ISSUER must be an https:// URL (http:// only for localhost or 127.0.0.1)',
      ),
    );
    for (const issuer of ['http://localhost:8080', 'http://127.0.0.1:9000/realms/dev']) {
      expect(load({ OIDC_X_ISSUER: issuer, OIDC_X_CLIENT_ID: 'c' }).identityProviders[0]?.issuer).toBe(issuer);
    }
  });

  it('names the missing or bad variable in one line, never a secret', () => {
    expect(() => load({ OIDC_X_ISSUER: 'https://sso.example.com' })).toThrow(
      'Invalid configuration: OIDC_X_CLIENT_ID must be set',
    );
    expect(() => load({ OIDC_X_CLIENT_ID: 'c', OIDC_X_CLIENT_SECRET: 'very-secret' })).toThrow(
      'Invalid configuration: OIDC_X_ISSUER must be set',
    );
    expect(() =>
      load({ OIDC_X_ISSUER: 'not a url', OIDC_X_CLIENT_ID: 'c', OIDC_X_CLIENT_SECRET: 'very-secret' }),
    ).toThrow(/^Invalid configuration: OIDC_X_ISSUER must be an absolute https:\/\/ URL$/);
    expect(() =>
      load({ OIDC_X_ISSUER: 'https://a.example', OIDC_X_CLIENT_ID: 'c', OIDC_X_PROVIDER_ID: 'password' }),
    ).toThrow('Invalid configuration: OIDC_X_PROVIDER_ID must look like google.com or oidc.name');
    expect(
      load({ OIDC_X_ISSUER: 'https://a.example', OIDC_X_CLIENT_ID: 'c', OIDC_X_PROVIDER_ID: 'oidc.my-okta' })
        .identityProviders[0]?.providerId,
    ).toBe('oidc.my-okta');
  });
});
