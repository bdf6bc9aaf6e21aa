import type { FastifyPluginAsync } from 'fastify';
import type { IdentityCore } from '../core/identityCore.ts';
import { parseBody, resetPasswordBody, sendOobCodeBody } from './requestSchemas.ts';
import { originOf } from './sessionDelivery.ts';

/** Emailed action codes: sending one, checking it, applying it. */
export function oobCodeRoutes(core: IdentityCore): FastifyPluginAsync {
  const { actionCodes } = core;

  return async (app) => {
    app.post('/v1/accounts::sendOobCode', async (request) => {
      const body = parseBody(sendOobCodeBody, request.body);
      await actionCodes.sendPasswordReset(body.email, originOf(request));
      return { kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email: body.email };
    });

    app.post('/v1/accounts::resetPassword', async (request) => {
      const body = parseBody(resetPasswordBody, request.body);
      const info =
        body.newPassword === undefined
          ? await actionCodes.check(body.oobCode, originOf(request))
          : await actionCodes.resetPassword(body.oobCode, body.newPassword, originOf(request));
      return { kind: 'identitytoolkit#ResetPasswordResponse', ...info };
    });
  };
}
