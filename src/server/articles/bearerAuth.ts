import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../http/problem.ts';

/** What the articles feature needs to know about a signed-in caller. */
export interface Caller {
  uid: string;
}

export type VerifyIdToken = (idToken: string) => Promise<Caller>;

/**
 * Identity signals a refused token (bad, expired, revoked, user gone or disabled) with
 * these codes; any other failure is a fault of ours and must surface as one, not as a 401.
 */
const REFUSED_TOKEN_CODES = new Set(['INVALID_ID_TOKEN', 'TOKEN_EXPIRED', 'USER_NOT_FOUND', 'USER_DISABLED']);

function isRefusedToken(error: unknown): boolean {
  return error instanceof Error && 'code' in error && REFUSED_TOKEN_CODES.has(String(error.code));
}

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
      return { uid: user.uid };
    } catch (error) {
      if (!isRefusedToken(error)) throw error;
    }
  }
  reply.header('www-authenticate', 'Bearer error="invalid_token"');
  await sendProblem(reply, 401, 'Your sign-in is not valid or has expired. Sign in again.');
  return undefined;
}
