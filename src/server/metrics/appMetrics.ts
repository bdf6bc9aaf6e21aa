import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';

// Seconds; spans a cached list read (~1 ms) to an argon2 sign-in under load (~1 s).
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const HTTP_LABELS = ['method', 'route', 'status'] as const;

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

/**
 * The server's Prometheus metrics (prom-client). One registry per app, not prom-client's global
 * one: tests run several apps in one process. Label values come from closed sets (route
 * patterns, status classes, refusal codes), never from raw input.
 */
export function createAppMetrics(deps: { config: Config; database: Database }): AppMetrics {
  const { config, database } = deps;
  const registry = new Registry();
  const registers = [registry];

  const requests = new Counter({
    name: 'inkwell_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class.',
    labelNames: HTTP_LABELS,
    registers,
  });
  const latency = new Histogram({
    name: 'inkwell_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status class.',
    labelNames: HTTP_LABELS,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const signIns = new Counter({
    name: 'inkwell_sign_ins_total',
    help: 'Sign-in attempts of every method (password, passkey...), by result and refusal code.',
    labelNames: ['result', 'code'] as const,
    registers,
  });
  const emailFailures = new Counter({
    name: 'inkwell_email_failures_total',
    help: 'Emails the mail server (or the dev outbox) refused or never took.',
    registers,
  });

  // Each database reports what an operator watches on it, and only that: a series that is
  // always empty on one database would read as "no connections".
  if (database.poolStats) {
    const poolStats = database.poolStats.bind(database);
    new Gauge({
      name: 'inkwell_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients).',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }
  if (config.database.kind === 'sqlite') {
    const { file: databaseFile } = config.database;
    // SQLite has one connection per process and no pool; its file sizes are what an operator watches
    // (a WAL that keeps growing means checkpoints are starved by long readers).
    new Gauge({
      name: 'inkwell_sqlite_file_bytes',
      help: 'Size of the SQLite database file and its write-ahead log.',
      labelNames: ['file'] as const,
      registers,
      collect() {
        for (const [file, suffix] of [
          ['database', ''],
          ['wal', '-wal'],
        ] as const) {
          const size = fileSize(databaseFile + suffix);
          if (size !== undefined) this.set({ file }, size);
        }
      },
    });
  }
  new Gauge({
    name: 'inkwell_process_resident_memory_bytes',
    help: 'Resident set size of this process.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });

  return {
    countSignIn(outcome) {
      signIns.inc(
        outcome.ok ? { result: 'success', code: '' } : { result: 'failure', code: outcome.code ?? 'unknown' },
      );
    },
    countEmailFailure() {
      emailFailures.inc();
    },
    register(app) {
      // One pair of labelled children per method, route pattern and status class, found by one
      // string key: prom-client hashes a label object on every inc/observe otherwise, which was
      // a tenth of a cached list read's own CPU (bench/README.md). Bounded: the keys are the
      // routes' patterns, a handful of methods and five status classes.
      const series = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();
      const seriesOf = (method: string, pattern: string | undefined, statusCode: number) => {
        const status = `${Math.floor(statusCode / 100)}xx`;
        const key = `${method} ${status} ${pattern ?? ''}`;
        let found = series.get(key);
        if (found === undefined) {
          // The route pattern (never the raw URL, which would make one series per article id);
          // identity's escaped '::' reads as the path segment ':' it matches.
          const route = pattern === undefined ? 'unmatched' : pattern.replace(/::/g, ':');
          const labels = { method, route, status };
          found = { count: requests.labels(labels), time: latency.labels(labels) };
          series.set(key, found);
        }
        return found;
      };
      // Callback style: an async hook costs a promise on every request.
      app.addHook('onResponse', (request, reply, done) => {
        const found = seriesOf(request.method, request.routeOptions.url, reply.statusCode);
        found.count.inc();
        found.time.observe(reply.elapsedTime / 1000);
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
        return reply.type(registry.contentType).send(await registry.metrics());
      });
    },
  };
}
