import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync } from 'fastify';
import { MailDeliveryError } from '../mail/mailer.ts';
import { validSinceAfterChange } from './idTokens.ts';
import { passwordResetEmail } from './identityEmails.ts';
import type { IdentityContext } from './identityContext.ts';
import { consumeOrThrow, emailKey } from './identityRateLimits.ts';
import { isOpaqueSecretShaped } from './opaqueSecrets.ts';
import { hashPassword } from './passwordHashing.ts';
import { ProtocolError } from './protocolErrors.ts';
import { checkPasswordStrength, parseBody, resetPasswordBody, sendOobCodeBody } from './requestSchemas.ts';

const deliveryFailed = () =>
  new ProtocolError('EMAIL_DELIVERY_FAILED', { status: 503, detail: 'The email could not be sent. Try again later.' });

/** Password reset by emailed code: sending the code, checking it, applying it. */
export function passwordResetRoutes(context: IdentityContext): FastifyPluginAsync {
  const { config, users, sessions, oobCodes, rateLimiter, rules, deliveryMask } = context;

  return async (app) => {
    app.post('/v1/accounts::sendOobCode', async (request) => {
      const body = parseBody(sendOobCodeBody, request.body);
      await consumeOrThrow(rateLimiter, [
        [rules.resetEmailPerEmail, emailKey(body.email)],
        [rules.resetEmailPerIp, request.ip],
      ]);
      const answer = { kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email: body.email };
      const user = await users.findByEmail(body.email);
      if (!user || user.disabled === 1) {
        // Nothing is sent, but the answer takes as long and fails as often as a real send.
        const imitation = deliveryMask.imitate(context.now());
        await sleep(imitation.waitMs);
        if (imitation.fail) throw deliveryFailed();
        return answer;
      }
      const code = await oobCodes.issuePasswordReset(user.id, user.email, context.now());
      const started = performance.now();
      try {
        await context.mailer.send(passwordResetEmail({ to: user.email, publicUrl: config.publicUrl, code }));
        deliveryMask.record({ durationMs: performance.now() - started, failed: false }, context.now());
      } catch (error) {
        deliveryMask.record({ durationMs: performance.now() - started, failed: true }, context.now());
        if (error instanceof MailDeliveryError) {
          request.log.warn({ err: { name: error.name, message: error.message } }, 'password reset email not sent');
          throw deliveryFailed();
        }
        throw error;
      }
      return answer;
    });

    app.post('/v1/accounts::resetPassword', async (request) => {
      const body = parseBody(resetPasswordBody, request.body);
      await consumeOrThrow(rateLimiter, [[rules.resetCodePerIp, request.ip]]);
      if (!isOpaqueSecretShaped(body.oobCode)) throw new ProtocolError('INVALID_OOB_CODE');
      const row = await oobCodes.find(body.oobCode);
      if (!row || row.used_at !== null || row.request_type !== 'PASSWORD_RESET') {
        throw new ProtocolError('INVALID_OOB_CODE');
      }
      if (row.expires_at <= context.now()) throw new ProtocolError('EXPIRED_OOB_CODE');
      const user = await users.findById(row.user_id);
      // The code was sent to an address the account no longer has.
      if (!user || user.email !== row.email) throw new ProtocolError('INVALID_OOB_CODE');
      const answer = {
        kind: 'identitytoolkit#ResetPasswordResponse',
        email: user.email,
        requestType: 'PASSWORD_RESET',
      };
      if (body.newPassword === undefined) return answer;

      checkPasswordStrength(body.newPassword, config.passwordMinLength);
      const passwordHash = await hashPassword(body.newPassword);
      const now = context.now();
      await context.database.db.transaction().execute(async (trx) => {
        if (!(await oobCodes.markUsed(body.oobCode, now, trx))) throw new ProtocolError('INVALID_OOB_CODE');
        // Following the emailed link proves the address, and every old session ends.
        await users.update(
          user.id,
          {
            password_hash: passwordHash,
            password_updated_at: now,
            valid_since: validSinceAfterChange(now, user.valid_since),
            email_verified: 1,
          },
          trx,
        );
        await sessions.revokeAllOfUser(user.id, trx);
      });
      return answer;
    });
  };
}
