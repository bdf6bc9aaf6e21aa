import type { FastifyReply } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { FieldError } from '../../shared/fieldError.ts';

/** An RFC 9457 problem details body. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
}

export function problemBody(status: number, detail: string, errors?: FieldError[]): Problem {
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export function sendProblem(reply: FastifyReply, status: number, detail: string, errors?: FieldError[]) {
  return reply
    .code(status)
    .type('application/problem+json; charset=utf-8')
    .send(problemBody(status, detail, errors));
}
