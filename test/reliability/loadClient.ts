/** Test helpers shared by the load and shutdown tests: users, calls, and failure bookkeeping. */

export interface LoadUser {
  uid: string;
  email: string;
  password: string;
  idToken: string;
  refreshToken: string;
}

export interface CallOutcome {
  status: number;
  body: unknown;
}

/** Why a fetch failed at the transport level: ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET... */
export function failureCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(error);
}

export async function call(
  url: string,
  init: { method?: string; json?: unknown; token?: string; signal?: AbortSignal } = {},
): Promise<CallOutcome> {
  const response = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body };
}

export async function signUpUser(base: string, label: string): Promise<LoadUser> {
  const email = `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const answer = await call(`${base}/identity/v1/accounts:signUp?key=k`, {
    json: { email, password, displayName: label, returnSecureToken: true },
  });
  if (answer.status !== 200) throw new Error(`sign-up answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const body = answer.body as { localId: string; idToken: string; refreshToken: string };
  return { uid: body.localId, email, password, idToken: body.idToken, refreshToken: body.refreshToken };
}

/** Runs `task` over `items` with at most `limit` at once. */
export async function inBatches<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!);
      }
    }),
  );
  return results;
}

export const sampleArticle = (label: string) => ({
  image: 'https://images.example.com/load.jpg',
  title: `${label} title`,
  description: `${label} description`,
});
