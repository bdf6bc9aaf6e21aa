import type { FastifyPluginAsync } from 'fastify';
import type { FinalizeTotpEnrollmentResponse, StartTotpEnrollmentResponse } from '../../../shared/twoStepProtocol.ts';
import type { IdentityCore } from '../core/identityCore.ts';
import type { TwoStep } from './twoStep.ts';
import { parseBody } from '../protocol/requestSchemas.ts';
import { originOf, signInAnswer, type SessionDelivery } from '../protocol/sessionDelivery.ts';
import { TOTP_PARAMETERS } from './totpCodes.ts';
import { finalizeEnrollmentBody, finalizeSignInBody, startEnrollmentBody, withdrawBody } from './twoStepRequests.ts';

/**
 * The multi-factor calls of the protocol (DESIGN §8.4), TOTP only: a door createIdentity.ts
 * registers inside the `/identity` scope.
 */
export function twoStepRoutes(
  twoStep: TwoStep,
  verifyIdToken: IdentityCore['verifyIdToken'],
  delivery: SessionDelivery,
): FastifyPluginAsync {
  return async (app) => {
    app.post('/v2/accounts/mfaEnrollment::start', async (request): Promise<StartTotpEnrollmentResponse> => {
      const body = parseBody(startEnrollmentBody, request.body);
      const started = await twoStep.startEnrollment(await verifyIdToken(body.idToken));
      return {
        totpSessionInfo: {
          sharedSecretKey: started.secret,
          verificationCodeLength: TOTP_PARAMETERS.digits,
          hashingAlgorithm: TOTP_PARAMETERS.algorithm,
          periodSec: TOTP_PARAMETERS.period,
          sessionInfo: started.sessionInfo,
          finalizeEnrollmentTime: new Date(started.finalizeBy).toISOString(),
        },
      };
    });

    app.post(
      '/v2/accounts/mfaEnrollment::finalize',
      async (request, reply): Promise<FinalizeTotpEnrollmentResponse> => {
        const body = parseBody(finalizeEnrollmentBody, request.body);
        const token = await verifyIdToken(body.idToken);
        const { session, recoveryCodes } = await twoStep.finalizeEnrollment(token, {
          sessionInfo: body.totpVerificationInfo.sessionInfo,
          code: body.totpVerificationInfo.verificationCode,
          displayName: body.displayName,
          replaces: delivery.replaced(request),
        });
        return { ...delivery.deliver(request, reply, session), recoveryCodes };
      },
    );

    app.post('/v2/accounts/mfaEnrollment::withdraw', async (request, reply) => {
      const body = parseBody(withdrawBody, request.body);
      const token = await verifyIdToken(body.idToken);
      const session = await twoStep.withdraw(token, {
        enrollmentId: body.mfaEnrollmentId,
        replaces: delivery.replaced(request),
      });
      return delivery.deliver(request, reply, session);
    });

    app.post('/v2/accounts/mfaSignIn::finalize', async (request, reply) => {
      const body = parseBody(finalizeSignInBody, request.body);
      const session = await twoStep.finishSignIn(
        {
          credential: body.mfaPendingCredential,
          enrollmentId: body.mfaEnrollmentId,
          code: body.totpVerificationInfo.verificationCode,
        },
        { origin: originOf(request), replaces: delivery.replaced(request) },
      );
      return signInAnswer(delivery, request, reply, { kind: 'session', session });
    });
  };
}
