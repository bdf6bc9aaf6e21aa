import { expect, type APIRequestContext } from '@playwright/test';

/** An account made through the sign-in service's API, with a fresh ID token. */
export interface ApiAccount {
  uid: string;
  name: string;
  email: string;
  password: string;
  idToken: string;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export async function apiSignUp(request: APIRequestContext, name: string): Promise<ApiAccount> {
  const email = `reader-${unique()}@example.com`;
  const password = `pw-${unique()}`;
  const response = await request.post('/identity/v1/accounts:signUp?key=e2e', {
    data: { email, password, displayName: name, returnSecureToken: true },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { idToken: string; localId: string };
  return { uid: body.localId, name, email, password, idToken: body.idToken };
}

export interface CreatedArticle {
  id: string;
  title: string;
  date: string;
}

export async function apiPublish(
  request: APIRequestContext,
  account: ApiAccount,
  article: { image: string; title: string; description: string; tags?: string[] },
): Promise<CreatedArticle> {
  const response = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${account.idToken}` },
    data: article,
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CreatedArticle;
}
