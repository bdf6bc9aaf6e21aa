import type { FastifyPluginAsync } from 'fastify';
import type { IdentityCore } from '../core/identityCore.ts';
import {
  changeEmailOobBody,
  parseBody,
  passwordResetOobBody,
  resetPasswordBody,
  sendOobCodeBody,
  verifyEmailOobBody,
} from './requestSchemas.ts';
import { originOf } from './sessionDelivery.ts';

/** Emailed action codes: sending one, checking it, applying it. */
export function oobCodeRoutes(core: IdentityCore): FastifyPluginAsync {
  const { actionCodes } = core;

  return async (app) => {
    app.post('/v1/accounts::sendOobCode', async (request) => {
      const { requestType } = parseBody(sendOobCodeBody, request.body);
      const answer = (email: string) => ({ kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email });
      const origin = originOf(request);
      switch (requestType) {
        case 'PASSWORD_RESET': {
          const { email } = parseBody(passwordResetOobBody, request.body);
          await actionCodes.sendPasswordReset(email, origin);
          return answer(email);
        }
        case 'VERIFY_EMAIL': {
          const { idToken } = parseBody(verifyEmailOobBody, request.body);
          const token = await core.verifyIdToken(idToken);
          return answer((await core.emailActions.sendVerification(token, origin)).email);
        }
        case 'VERIFY_AND_CHANGE_EMAIL': {
          const { idToken, newEmail } = parseBody(changeEmailOobBody, request.body);
          const token = await core.verifyIdToken(idToken);
          return answer((await core.emailActions.sendChangeVerification(token, newEmail, origin)).email);
        }
      }
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
