import type { FieldError } from '../../shared/fieldError.ts';

/**
 * A failed call of the server's `/api` (articles, images, search, members, invitations). status 0
 * means the request never got an answer (offline, server down, timed out); 401 is also used when
 * there is no signed-in user to ask for a token.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldError[];

  constructor(message: string, status: number, fieldErrors: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
  }
}

/** Reads an RFC 9457 problem body; anything else still becomes a typed error with the status. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let detail = `HTTP ${response.status}`;
  let fieldErrors: FieldError[] = [];
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') {
      const problem = body as { title?: unknown; detail?: unknown; errors?: unknown };
      if (typeof problem.detail === 'string') detail = problem.detail;
      else if (typeof problem.title === 'string') detail = problem.title;
      if (Array.isArray(problem.errors)) {
        fieldErrors = problem.errors.filter(
          (entry): entry is FieldError =>
            !!entry && typeof entry.field === 'string' && typeof entry.message === 'string',
        );
      }
    }
  } catch {
    // Not JSON (a proxy's error page, say): the status alone has to do.
  }
  return new ApiError(detail, response.status, fieldErrors);
}
