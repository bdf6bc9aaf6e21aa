import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { sendProblem } from '../http/problem.ts';

/** Liveness (the process answers) and readiness (the database answers too). */
export async function healthRoutes(app: FastifyInstance, options: { database: Database }) {
  app.get('/healthz', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await options.database.ping();
      return reply.send({ status: 'ready' });
    } catch (error) {
      request.log.error({ err: error }, 'readiness check failed: database unreachable');
      return sendProblem(reply, 503, 'The database is not reachable.');
    }
  });
}
