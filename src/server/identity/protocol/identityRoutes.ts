import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { IdentityCore } from '../core/identityCore.ts';
import { accountRoutes } from './accountRoutes.ts';
import { oobCodeRoutes } from './oobCodeRoutes.ts';
import { ProtocolError, sendProtocolError, toProtocolError } from './protocolErrors.ts';
import { publicRoutes } from './publicRoutes.ts';
import type { SessionDelivery } from './sessionDelivery.ts';
import { tokenRoutes } from './tokenRoutes.ts';

/** Maps errors Fastify raises while reading a request to protocol errors. */
function requestProblem(error: FastifyError): ProtocolError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProtocolError('PAYLOAD_TOO_LARGE', { status: 413 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProtocolError('UNSUPPORTED_MEDIA_TYPE', { status: 415 });
  }
  const status = error.statusCode ?? 500;
  if (error instanceof SyntaxError || (status >= 400 && status < 500)) return new ProtocolError('INVALID_REQUEST');
  return undefined;
}

/**
 * The Identity Toolkit door over the identity core: the `/identity` scope. Every answer here, including errors Fastify itself raises and
 * unknown paths, is protocol JSON: clients read any other error body as a network failure.
 */
export function identityRoutes(
  core: IdentityCore,
  config: Config,
  delivery: SessionDelivery,
  /** The other sign-in doors (two-step, providers, passkeys), registered inside this scope: they share its set-up. */
  doors: readonly FastifyPluginAsync[],
): FastifyPluginAsync {
  return async (app) => {
    // JSON and form bodies only (v1/token is form-encoded); anything else is a 415.
    app.removeContentTypeParser('text/plain');
    await app.register(fastifyFormbody);
    await app.register(fastifyCookie);

    app.setErrorHandler((error: FastifyError, request, reply) => {
      const refused = toProtocolError(error);
      if (refused) return sendProtocolError(reply, refused);
      const known = requestProblem(error);
      if (known) return sendProtocolError(reply, known);
      request.log.error({ err: error }, 'unhandled identity error');
      return sendProtocolError(reply, new ProtocolError('INTERNAL_ERROR', { status: 500 }));
    });
    const notFound = () => {
      throw new ProtocolError('NOT_FOUND', { status: 404 });
    };
    app.setNotFoundHandler(notFound);
    // The web app's static files claim GET /* at the root; this keeps /identity/* ours.
    app.all('/*', notFound);

    // Responses carry tokens: never cache them. Callback style: one promise less per answer.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      done(null, payload);
    });

    // Create (or load) the signing key at start-up rather than on the first sign-in.
    app.addHook('onReady', async () => {
      await core.keys.ready();
    });

    await app.register(accountRoutes(core, delivery));
    await app.register(tokenRoutes(core, config, delivery));
    await app.register(oobCodeRoutes(core));
    await app.register(publicRoutes(core, config));
    for (const door of doors) await app.register(door);
  };
}
