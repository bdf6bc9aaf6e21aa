import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    readVersionScope: ReadVersionScope | null;
  }
}

/**
 * One request's view of the read version (decision 0745). Every cached read and the settings
 * check ask the database for its read version; within one request the answer read first is
 * as good as any later one, because the promise made (decision 0100) is "never older than the
 * database when the request arrived". So the first read of a request is kept for the rest of
 * it, and forgotten when
 * - this process writes through the same connection (its own change must show in its next
 *   read: `writes` no longer matches),
 * - the request has been answered (work the request set off and that runs on afterwards reads
 *   afresh),
 * - or the code runs outside any request (schedulers, workers, the admin command).
 * Each request begins a scope of its own (`registerReadVersionScope`, the app's first onRequest
 * hook), so no request, in this process or through `inject`, sees an earlier request's value.
 */
export interface ReadVersionScope {
  /** Whose read version this is: a scope keeps one database's, the first one asked. */
  owner: object | undefined;
  /** The version read first in this request; null until one was read. */
  value: string | null;
  /** The owner's count of its own writes when `value` was read. */
  writes: number;
  open: boolean;
}

const scopes = new AsyncLocalStorage<ReadVersionScope>();

export function newReadVersionScope(): ReadVersionScope {
  return { owner: undefined, value: null, writes: 0, open: true };
}

/** Runs `next`, and everything it sets off, in `scope`. */
export function runInReadVersionScope(scope: ReadVersionScope, next: () => void): void {
  scopes.run(scope, next);
}

export function closeReadVersionScope(scope: ReadVersionScope | null | undefined): void {
  if (!scope) return;
  scope.open = false;
  scope.value = null;
}

/**
 * `read` as seen within the current request: the first value for the rest of the request,
 * unless `writes()` (the owner's own writes so far) has moved since. An unreadable version
 * (null) is not kept: the next read tries again.
 */
export function readOncePerRequest(
  owner: object,
  read: () => string | null,
  writes: () => number,
): () => string | null {
  return () => {
    const scope = scopes.getStore();
    if (!scope?.open || (scope.owner !== undefined && scope.owner !== owner)) return read();
    if (scope.value !== null && scope.writes === writes()) return scope.value;
    scope.owner = owner;
    scope.writes = writes();
    scope.value = read();
    return scope.value;
  };
}

/** Gives every request of `app` its own scope from its first hook on, closed once it is answered. */
export function registerReadVersionScope(app: FastifyInstance): void {
  app.decorateRequest('readVersionScope', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const scope = newReadVersionScope();
    request.readVersionScope = scope;
    runInReadVersionScope(scope, done);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    closeReadVersionScope(request.readVersionScope);
    done();
  });
}
