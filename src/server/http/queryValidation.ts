import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { sendProblem } from './problem.ts';

/** Distinct query strings whose parse is remembered per route; client-made ones past this are parsed each time. */
const PARSED_QUERIES_KEPT = 256;

/**
 * A route's `preValidation` hook that parses the query string with a zod schema: a problem
 * (400, `The <field> parameter is not valid.`, with the schema's message for the field at
 * fault) before the handler runs, or the parsed values in place of `request.query`, which
 * the handler reads as `request.query as z.output<typeof schema>` and must not change. The
 * schema's issue messages are written for the client.
 *
 * A successful parse is remembered by the raw query string (a bounded set): a zod parse
 * allocates enough that, on every cached list read, its garbage tripled the collector's share
 * of the CPU (bench/README.md, "Profile of a cached list read").
 */
export function queryValidation(
  schema: z.ZodType,
  /** The problem's sentence for the field at fault, where a route has its own; else `The <field> parameter is not valid.` */
  detailFor: (field: string) => string = (field) => `The ${field} parameter is not valid.`,
) {
  const parsed = new Map<string, unknown>();
  return function validateQuery(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
    const mark = request.url.indexOf('?');
    const raw = mark === -1 ? '' : request.url.slice(mark + 1);
    const known = parsed.get(raw);
    if (known !== undefined) {
      request.query = known;
      return done();
    }
    const result = schema.safeParse(request.query);
    if (result.success) {
      if (parsed.size < PARSED_QUERIES_KEPT) parsed.set(raw, Object.freeze(result.data));
      request.query = result.data;
      return done();
    }
    const errors = result.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? { field: issue.keys[0]!, message: `${issue.keys[0]!} is not a parameter of this request.` }
        : { field: String(issue.path[0] ?? 'query'), message: issue.message },
    );
    void sendProblem(reply, 400, detailFor(errors[0]!.field), errors.slice(0, 1));
  };
}
