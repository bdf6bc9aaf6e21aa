// A writer on a running server, through its public doors only: sign up, upload an image,
// publish an article. Used by the benchmarks that need content made the way people make it.

/** Signs up a new account and returns its ID token. */
export async function signUpWriter(origin: string): Promise<string> {
  const response = await fetch(`${origin}/identity/v1/accounts:signUp?key=bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `writer-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'correct horse battery staple',
      returnSecureToken: true,
    }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status}`);
  return ((await response.json()) as { idToken: string }).idToken;
}

/** Uploads an image (a JPEG unless `contentType` says) through `POST /api/images` and returns the URL the server gives it. */
export async function uploadImage(
  origin: string,
  token: string,
  image: Buffer,
  contentType = 'image/jpeg',
): Promise<string> {
  const response = await fetch(`${origin}/api/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: new Uint8Array(image),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${text}`);
  return (JSON.parse(text) as { url: string }).url;
}

/** Publishes an article and returns its id. */
export async function publishArticle(
  origin: string,
  token: string,
  article: { image: string; title: string; description: string },
): Promise<string> {
  const response = await fetch(`${origin}/api/articles`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(article),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`publishing failed: ${response.status} ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}
