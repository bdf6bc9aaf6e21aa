import type { FastifyPluginAsync } from 'fastify';
import { MAX_PASSWORD_LENGTH, type PasswordPolicyResponse } from '../../../shared/identityProtocol.ts';
import type { Config } from '../../config.ts';
import type { IdentityCore } from '../core/identityCore.ts';

/** The password policy and the public signing keys. */
export function publicRoutes(core: IdentityCore, config: Config): FastifyPluginAsync {
  return async (app) => {
    app.get('/v2/passwordPolicy', async (): Promise<PasswordPolicyResponse> => ({
      customStrengthOptions: {
        minPasswordLength: config.passwordMinLength,
        maxPasswordLength: MAX_PASSWORD_LENGTH,
      },
      allowedNonAlphanumericCharacters: [],
      enforcementState: 'ENFORCE',
      forceUpgradeOnSignin: false,
      schemaVersion: 1,
    }));

    app.get('/.well-known/jwks.json', async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return core.keys.jwks();
    });
  };
}
