import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { IdentityCore } from '../core/identityCore.ts';
import { ProtocolError } from './protocolErrors.ts';
import { parseBody, revokeTokenBody, tokenBody } from './requestSchemas.ts';
import { clearSessionCookie, isCookieMode, readSessionCookie, setSessionCookie } from './sessionCookie.ts';
import type { SessionDelivery } from './sessionDelivery.ts';

/** Refreshing ID tokens and signing out (revoking a refresh token). */
export function tokenRoutes(core: IdentityCore, config: Config, delivery: SessionDelivery): FastifyPluginAsync {
  const { secure } = delivery;

  return async (app) => {
    app.post('/v1/token', async (request, reply) => {
      const body = parseBody(tokenBody, request.body);
      const cookieMode = isCookieMode(request);
      const refreshToken = body.refresh_token || readSessionCookie(request);
      if (!refreshToken) throw new ProtocolError('MISSING_REFRESH_TOKEN');
      const issued = await core.sessions.refresh(refreshToken);
      if (cookieMode) setSessionCookie(reply, { ...issued, refreshToken }, secure);
      return {
        access_token: issued.idToken,
        expires_in: String(issued.expiresInSeconds),
        token_type: 'Bearer',
        ...(cookieMode ? {} : { refresh_token: refreshToken }),
        id_token: issued.idToken,
        user_id: issued.user.id,
        project_id: config.projectId,
      };
    });

    app.post('/v2/accounts::revokeToken', async (request, reply) => {
      const body = parseBody(revokeTokenBody, request.body);
      const cookieMode = isCookieMode(request);
      const token = body.token || readSessionCookie(request);
      if (!token && !cookieMode) throw new ProtocolError('MISSING_REFRESH_TOKEN');
      if (token) await core.sessions.signOut(token);
      if (cookieMode) clearSessionCookie(reply, secure);
      return {};
    });
  };
}
