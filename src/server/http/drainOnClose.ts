import type { FastifyInstance } from 'fastify';

/**
 * Lets app.close() finish while clients hold keep-alive connections. Node's server.close()
 * closes the connections idle at that instant only; a connection busy with a request then
 * stays open after its answer, and close() waits for the client to hang up (a proxy never
 * does), so SIGTERM ended in the forced exit. While closing, answers carry
 * `Connection: close`, and connections that fall idle are closed as they do.
 */
export function registerDrainOnClose(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
    sweeper.unref();
    app.server.once('close', () => clearInterval(sweeper));
  });
  // Callback style: an async hook would cost a promise on every request for a flag read.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
