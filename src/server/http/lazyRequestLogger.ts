import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions } from 'pino';

type LogMethod = (...args: unknown[]) => void;
const levelValue = (level: string) => pino.levels.values[level] ?? Number.POSITIVE_INFINITY;

/**
 * A request's logger that becomes pino's child only when something logs through it. Fastify
 * makes every request a child logger bound to its id (pino's `child()`: the bindings serialised
 * and redacted, objects that become garbage, about 2 µs of CPU a request on this machine), yet a
 * request that goes well never logs through it: its one line has a logger of its own
 * (accessLog.ts), and the arrival's debug line is off at info. Below the level, a call makes nothing.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  #log(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]) {
    if (levelValue(level) < levelValue(this.level)) return;
    const real = this.#real();
    (real[level] as LogMethod).apply(real, args);
  }

  // Methods on the prototype, not per-instance closures: nothing is made per request but this object.
  fatal(...args: unknown[]) {
    this.#log('fatal', args);
  }
  error(...args: unknown[]) {
    this.#log('error', args);
  }
  warn(...args: unknown[]) {
    this.#log('warn', args);
  }
  info(...args: unknown[]) {
    this.#log('info', args);
  }
  debug(...args: unknown[]) {
    this.#log('debug', args);
  }
  trace(...args: unknown[]) {
    this.#log('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made real on its first line. */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new LazyRequestLogger(logger, bindings, options);
