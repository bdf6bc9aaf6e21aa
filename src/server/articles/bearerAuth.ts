import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../http/problem.ts';
import { IdTokenError } from '../identity/createIdentity.ts';
import type { Role } from '../../shared/roles.ts';

/** What the articles feature needs to know about a signed-in caller. */
export interface Caller {
  uid: string;
  /** The account's role as the database holds it at this request. */
  role: Role;
}

export type VerifyIdToken = (idToken: string) => Promise<Caller>;

/**
 * Reads `Authorization: Bearer <ID token>` and verifies it. Answers 401 itself and returns
 * undefined when the caller is not signed in.
 */
export async function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  verifyIdToken: VerifyIdToken,
): Promise<Caller | undefined> {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') {
    reply.header('www-authenticate', 'Bearer');
    await sendProblem(reply, 401, 'Sign in first: send your ID token as Authorization: Bearer <token>.');
    return undefined;
  }
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  if (match) {
    try {
      const user = await verifyIdToken(match[1]!);
      return { uid: user.uid, role: user.role };
    } catch (error) {
      // IdTokenError is a refused token (bad, expired, revoked, user gone or disabled); any
      // other failure is a fault of ours and must surface as one, not as a 401.
      if (!(error instanceof IdTokenError)) throw error;
    }
  }
  await sendInvalidToken(reply);
  return undefined;
}

/** 401 for a token that is refused, or whose account is gone. */
export function sendInvalidToken(reply: FastifyReply) {
  reply.header('www-authenticate', 'Bearer error="invalid_token"');
  return sendProblem(reply, 401, 'Your sign-in is not valid or has expired. Sign in again.');
}
