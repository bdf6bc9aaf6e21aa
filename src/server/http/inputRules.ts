import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './problem.ts';

/**
 * The input rules every request meets before any route sees it (docs/security.md, "Input
 * rules"; decision 0561). Text no route could store or look up faithfully is refused at the
 * edge with 400, in the format of the scope the path names, instead of reaching a database
 * that fails on it (PostgreSQL refuses NUL in text: a 500) or silently changes it (a lone
 * surrogate becomes U+FFFD when encoded as UTF-8, so what is stored is not what was sent):
 *
 * - no NUL and no lone surrogate anywhere: a decoded path segment, a query parameter's name or
 *   value, a JSON (or form) body's keys and string values at any depth;
 * - a decoded path segment at most {@link MAX_PATH_SEGMENT_LENGTH} characters and a query
 *   value at most {@link MAX_QUERY_VALUE_LENGTH}: no identifier, slug, cursor or search on this
 *   site is longer, and a longer one must not reach an index (PostgreSQL's btree rows end near
 *   2,700 bytes).
 *
 * Body strings keep the limits their own schemas give (an article's text is long by right);
 * a field that is stored in an indexed column has a length limit in its schema.
 */
export const MAX_PATH_SEGMENT_LENGTH = 512;
export const MAX_QUERY_VALUE_LENGTH = 2000;
/** Deeper JSON than this is not a request any route takes; walking it is bounded. */
const MAX_DEPTH = 32;

/** Whether a string holds a NUL or a lone surrogate: text that cannot be stored as sent. */
export function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

export type Fault = 'unstorable' | 'too long' | 'too deep';
/** What is wrong, and where: the field's path in the body or query ([] for the URL's path). */
type Verdict = undefined | { fault: Fault; field: string[] };

function checkValue(value: unknown, depth: number, maxLength: number, field: string[]): Verdict {
  if (typeof value === 'string') {
    if (isUnstorableText(value)) return { fault: 'unstorable', field };
    return value.length > maxLength ? { fault: 'too long', field } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_DEPTH) return { fault: 'too deep', field };
  // Parsed data (JSON, forms, query strings) is walked; an upload's bytes or stream are not.
  if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const verdict = checkValue(item, depth + 1, maxLength, [...field, String(index)]);
      if (verdict) return verdict;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    // A key that cannot be stored is named by its path so far (it cannot name itself).
    if (isUnstorableText(key)) return { fault: 'unstorable', field };
    const verdict = checkValue(item, depth + 1, maxLength, [...field, key]);
    if (verdict) return verdict;
  }
  return undefined;
}

function pathVerdict(url: string): Verdict {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      // Not UTF-8 once decoded (e.g. %ED%A0%80, a lone surrogate's bytes): no route's value.
      return { fault: 'unstorable', field: [] };
    }
    if (isUnstorableText(segment)) return { fault: 'unstorable', field: [] };
    if (segment.length > MAX_PATH_SEGMENT_LENGTH) return { fault: 'too long', field: [] };
  }
  return undefined;
}

const URL_MESSAGES: Record<Fault, string> = {
  unstorable: 'The request URL holds a NUL character, a lone surrogate or bytes that are not UTF-8.',
  'too long': 'The request URL holds a value that is too long.',
  'too deep': 'The request is nested too deeply.',
};

const FIELD_MESSAGES: Record<Fault, (field: string) => string> = {
  unstorable: (field) => `${field} contains a character that cannot be stored (NUL or a lone surrogate).`,
  'too long': (field) => `${field} is too long.`,
  'too deep': (field) => `${field} is nested too deeply.`,
};

/** A refusal as a scope with its own error format (identity's protocol) answers it. */
export interface InputRefusal {
  fault: Fault;
  /** The field at fault, as a path; empty for the URL, or a body or query that is itself the fault. */
  field: readonly string[];
  where: 'url' | 'query' | 'body';
  /** The sentence the refusal would have as a problem's detail. */
  detail: string;
}

/** The scopes whose paths start with `prefix` answer in their own format. */
export interface InputRuleScope {
  prefix: string;
  refuse(reply: FastifyReply, refusal: InputRefusal): unknown;
}

function refuse(
  scopes: readonly InputRuleScope[],
  request: FastifyRequest,
  reply: FastifyReply,
  verdict: Exclude<Verdict, undefined>,
  where: 'url' | 'query' | 'body',
) {
  request.log.info({ inputRule: verdict.fault, where }, 'request refused by the input rules');
  // A body or query that is itself the fault (a bare string, a bad key) is named as a whole.
  const field = verdict.field.join('.') || (where === 'url' ? '' : where);
  const scope = scopes.find(({ prefix }) => request.url.startsWith(prefix));
  if (scope) {
    const first = verdict.field[0] ?? '';
    const detail = first === '' ? URL_MESSAGES[verdict.fault] : FIELD_MESSAGES[verdict.fault](first);
    return scope.refuse(reply, { fault: verdict.fault, field: verdict.field, where, detail });
  }
  if (field === '') return sendProblem(reply, 400, URL_MESSAGES[verdict.fault]);
  const detail = where === 'query' ? `The ${field} parameter is not valid.` : 'The request is not valid.';
  // Every field at fault, as the routes' own validation reports them (a form shows each).
  const others = otherFaults(where === 'query' ? request.query : request.body, verdict, where);
  const errors = [verdict, ...others].map((fault) => {
    const name = fault.field.join('.') || where;
    return { field: name, message: FIELD_MESSAGES[fault.fault](name) };
  });
  return sendProblem(reply, 400, detail, errors);
}

/** The faults of an object's other top-level fields (at most 20), after the first one found. */
function otherFaults(value: unknown, first: Exclude<Verdict, undefined>, where: 'url' | 'query' | 'body') {
  const faults: Exclude<Verdict, undefined>[] = [];
  if (value === null || typeof value !== 'object' || Array.isArray(value) || first.field.length === 0) return faults;
  const maxLength = where === 'query' ? MAX_QUERY_VALUE_LENGTH : Number.POSITIVE_INFINITY;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === first.field[0] || isUnstorableText(key)) continue;
    const verdict = checkValue(item, 1, maxLength, [key]);
    if (verdict) faults.push(verdict);
    if (faults.length === 20) break;
  }
  return faults;
}

/**
 * Adds the rules to the root instance; call before any route is registered so that every
 * scope (/identity, /api, images, publishing and the page routes) inherits them.
 */
export function registerInputRules(app: FastifyInstance, scopes: readonly InputRuleScope[] = []) {
  // Callback style: an async hook costs every request a promise and a microtask (issue 41's
  // profile of a cached list read). Refusing sends the answer and leaves `done` uncalled.
  app.addHook('onRequest', (request, reply, done) => {
    const inPath = pathVerdict(request.url);
    if (inPath) return void refuse(scopes, request, reply, inPath, 'url');
    const inQuery = checkValue(request.query, 0, MAX_QUERY_VALUE_LENGTH, []);
    if (inQuery) return void refuse(scopes, request, reply, inQuery, 'query');
    done();
  });
  app.addHook('preValidation', (request, reply, done) => {
    // A GET has no body: nothing to walk.
    if (request.body !== undefined) {
      const verdict = checkValue(request.body, 0, Number.POSITIVE_INFINITY, []);
      if (verdict) return void refuse(scopes, request, reply, verdict, 'body');
    }
    done();
  });
}
