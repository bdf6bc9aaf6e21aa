import type { FastifyPluginAsync } from 'fastify';
import { MAX_PASSWORD_LENGTH, type PasswordPolicyResponse } from '../../shared/identityProtocol.ts';
import type { IdentityContext } from './identityContext.ts';

/** The password policy and the public signing keys. */
export function publicRoutes(context: IdentityContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/v2/passwordPolicy', async (): Promise<PasswordPolicyResponse> => ({
      customStrengthOptions: {
        minPasswordLength: context.config.passwordMinLength,
        maxPasswordLength: MAX_PASSWORD_LENGTH,
      },
      allowedNonAlphanumericCharacters: [],
      enforcementState: 'ENFORCE',
      forceUpgradeOnSignin: false,
      schemaVersion: 1,
    }));

    app.get('/.well-known/jwks.json', async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return context.keys.jwks();
    });
  };
}
