import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { Counter, Gauge, Histogram, MetricsRegistry } from './metricsRegistry.ts';

// Seconds; spans a cached list read (~1 ms) to an argon2 sign-in under load (~1 s).
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface AppMetrics {
  countSignIn(outcome: { ok: boolean; code?: string }): void;
  countEmailFailure(): void;
  /**
   * Adds the request hooks (on the root instance, so every route counts) and, when
   * METRICS_TOKEN is set, GET /metrics (without it, /metrics is any unknown path: 404).
   */
  register(app: FastifyInstance): void;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Bearer token check in constant time (hashing first makes the lengths equal). */
function hasToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  return match !== null && timingSafeEqual(sha256(match[1]!), sha256(token));
}

function fileSize(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

export function createAppMetrics(deps: { config: Config; database: Database }): AppMetrics {
  const { config, database } = deps;
  const registry = new MetricsRegistry();
  const requests = registry.register(
    new Counter('inkwell_http_requests_total', 'HTTP requests answered, by method, route pattern and status class.'),
  );
  const latency = registry.register(
    new Histogram(
      'inkwell_http_request_duration_seconds',
      'Time to answer HTTP requests, by method, route pattern and status class.',
      LATENCY_BUCKETS,
    ),
  );
  const signIns = registry.register(
    new Counter('inkwell_sign_ins_total', 'Password sign-in attempts, by result and refusal code.'),
  );
  const emailFailures = registry.register(
    new Counter('inkwell_email_failures_total', 'Emails the mail server (or the dev outbox) refused or never took.'),
  );
  registry.register(
    new Gauge(
      'inkwell_db_pool_connections',
      'PostgreSQL pool connections by state (total, idle, waiting clients).',
      () => {
        const stats = database.poolStats?.();
        if (!stats) return [];
        return [
          { labels: { state: 'total' }, value: stats.total },
          { labels: { state: 'idle' }, value: stats.idle },
          { labels: { state: 'waiting' }, value: stats.waiting },
        ];
      },
    ),
  );
  registry.register(
    // SQLite has one connection per process and no pool; its file sizes are what an operator watches
    // (a WAL that keeps growing means checkpoints are starved by long readers).
    new Gauge('inkwell_sqlite_file_bytes', 'Size of the SQLite database file and its write-ahead log.', () => {
      if (config.database.kind !== 'sqlite') return [];
      const samples = [];
      for (const [file, suffix] of [
        ['database', ''],
        ['wal', '-wal'],
      ] as const) {
        const size = fileSize(config.database.file + suffix);
        if (size !== undefined) samples.push({ labels: { file }, value: size });
      }
      return samples;
    }),
  );
  registry.register(
    new Gauge('inkwell_process_resident_memory_bytes', 'Resident set size of this process.', () => [
      { labels: {}, value: process.memoryUsage.rss() },
    ]),
  );

  return {
    countSignIn(outcome) {
      signIns.inc(
        outcome.ok ? { result: 'success', code: '' } : { result: 'failure', code: outcome.code ?? 'unknown' },
      );
    },
    countEmailFailure() {
      emailFailures.inc({});
    },
    register(app) {
      // Callback style: an async hook costs a promise on every request.
      app.addHook('onResponse', (request, reply, done) => {
        // The route pattern (never the raw URL, which would make one series per article id);
        // identity's escaped '::' reads as the path segment ':' it matches.
        const pattern = request.routeOptions.url;
        const route = pattern === undefined ? 'unmatched' : pattern.replace(/::/g, ':');
        const labels = { method: request.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` };
        requests.inc(labels);
        latency.observe(labels, reply.elapsedTime / 1000);
        done();
      });

      const { metricsToken } = config;
      if (metricsToken === undefined) return;
      app.get('/metrics', async (request, reply) => {
        reply.header('cache-control', 'no-store');
        if (!hasToken(request.headers.authorization, metricsToken)) {
          return reply
            .code(401)
            .header('www-authenticate', 'Bearer realm="metrics"')
            .type('text/plain; charset=utf-8')
            .send('Unauthorized\n');
        }
        return reply.type('text/plain; version=0.0.4; charset=utf-8').send(registry.render());
      });
    },
  };
}
