import type { FastifyPluginAsync } from 'fastify';
import { signIdToken, ID_TOKEN_LIFETIME_SECONDS } from './idTokens.ts';
import type { IdentityContext } from './identityContext.ts';
import { isOpaqueSecretShaped } from './opaqueSecrets.ts';
import { ProtocolError } from './protocolErrors.ts';
import { parseBody, revokeTokenBody, tokenBody } from './requestSchemas.ts';
import { clearSessionCookie, isCookieMode, readSessionCookie, setSessionCookie } from './sessionCookie.ts';

/** Refreshing ID tokens and signing out (revoking a refresh token). */
export function tokenRoutes(context: IdentityContext): FastifyPluginAsync {
  const { config, sessions, users } = context;
  const secureCookie = config.publicUrl.startsWith('https:');

  return async (app) => {
    app.post('/v1/token', async (request, reply) => {
      const body = parseBody(tokenBody, request.body);
      const cookieMode = isCookieMode(request);
      // The cookie only counts with the session header, which a cross-site form cannot send.
      const refreshToken = body.refresh_token || (cookieMode ? readSessionCookie(request) : undefined);
      if (!refreshToken) throw new ProtocolError('MISSING_REFRESH_TOKEN');
      if (!isOpaqueSecretShaped(refreshToken)) throw new ProtocolError('INVALID_REFRESH_TOKEN');
      const now = context.now();
      // Revoked, expired and never-issued tokens look alike: the client must sign out.
      const session = await sessions.use(refreshToken, now);
      if (!session) throw new ProtocolError('TOKEN_EXPIRED');
      const user = await users.findById(session.user_id);
      if (!user) throw new ProtocolError('USER_NOT_FOUND');
      if (user.disabled === 1) throw new ProtocolError('USER_DISABLED');
      const idToken = await signIdToken(context.keys, {
        issuer: context.issuer,
        audience: config.projectId,
        user,
        sessionId: session.id,
        authTime: session.auth_time,
        now,
        signInProvider: session.sign_in_provider === 'passkey' ? 'passkey' : 'password',
      });
      if (cookieMode) setSessionCookie(reply, refreshToken, secureCookie);
      return {
        access_token: idToken,
        expires_in: String(ID_TOKEN_LIFETIME_SECONDS),
        token_type: 'Bearer',
        ...(cookieMode ? {} : { refresh_token: refreshToken }),
        id_token: idToken,
        user_id: user.id,
        project_id: config.projectId,
      };
    });

    app.post('/v2/accounts::revokeToken', async (request, reply) => {
      const body = parseBody(revokeTokenBody, request.body);
      const cookieMode = isCookieMode(request);
      const token = body.token || (cookieMode ? readSessionCookie(request) : undefined);
      if (!token) {
        if (cookieMode) {
          clearSessionCookie(reply, secureCookie);
          return {};
        }
        throw new ProtocolError('MISSING_REFRESH_TOKEN');
      }
      if (isOpaqueSecretShaped(token)) await sessions.revoke(token);
      if (cookieMode) clearSessionCookie(reply, secureCookie);
      return {};
    });
  };
}
