import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { ApiError } from './apiError.ts';
import { callApi } from './callApi.ts';

// The one `/api` caller of the web app against the real server (no database of its own: SQLite suffices).
describe('the web app’s /api caller against the real server', () => {
  let server: TestApp;
  let token: () => Promise<string | null>;

  async function failureOf(call: Promise<unknown>): Promise<ApiError> {
    const error = await call.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  beforeAll(async () => {
    server = await startTestApp(contractDatabases()[0]!);
    const response = await fetch(`${server.url}/identity/v1/accounts:signUp?key=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'caller@example.com', password: 'correct horse battery', returnSecureToken: true }),
    });
    const { idToken } = (await response.json()) as { idToken: string };
    token = async () => idToken;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends JSON with the bearer token, reads JSON back, and reads 204 as nothing', async () => {
    const baseUrl = server.url;
    const input = { image: 'https://example.com/a.png', title: 'Called', description: 'd' };
    const created = await callApi<{ id: string; title: string }>('POST', '/articles', { body: input, token, baseUrl });
    expect(created.title).toBe('Called');
    await expect(callApi('DELETE', `/articles/${created.id}`, { token, baseUrl })).resolves.toBeUndefined();
    expect((await failureOf(callApi('GET', `/articles/${created.id}`, { baseUrl }))).status).toBe(404);
  });

  it('turns a problem answer into ApiError with its detail and field errors', async () => {
    const error = await failureOf(
      callApi('POST', '/articles', {
        body: { image: 'ftp://x', title: 'ok', description: 'ok' },
        token,
        baseUrl: server.url,
      }),
    );
    expect(error.status).toBe(400);
    expect(error.fieldErrors.map((entry) => entry.field)).toEqual(['image']);
  });

  it('sends an upload as its own bytes and type, and refuses it signed out before any request', async () => {
    const notAnImage = new Blob(['not a picture'], { type: 'image/png' });
    const refused = await failureOf(callApi('POST', '/images', { upload: notAnImage, token, baseUrl: server.url }));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const signedOut = await failureOf(
      callApi('POST', '/images', { upload: notAnImage, token: async () => null, baseUrl: 'http://127.0.0.1:9' }),
    );
    expect(signedOut.status).toBe(401);
  });

  it('reports an unreachable server as status 0', async () => {
    expect((await failureOf(callApi('GET', '/articles', { baseUrl: 'http://127.0.0.1:9' }))).status).toBe(0);
  });
});
