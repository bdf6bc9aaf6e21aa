import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

/**
 * Web security in a real browser: hostile text stored in every article and profile field is
 * shown as text on every screen (no dialog, no injected element, no script run), and the
 * Content-Security-Policy stops inline script even when some HTML injection got through.
 */

const PAYLOADS = {
  title: `<img src=x onerror="window.__xss='title';alert('title')">`,
  description: `<script>window.__xss='description';alert('description')</script>\n"><svg onload="window.__xss='svg'"></svg> javascript:alert(1) {{constructor.constructor('alert(1)')()}}`,
  // A real http(s) URL, so the API takes it, carrying quotes and tags to break out of an attribute.
  image: `https://images.example.com/a.jpg?"><img/src=x/onerror="window.__xss='image'">`,
  displayName: `</title><script>window.__xss='name'</script><b onmouseover=alert(1)>Name</b>`,
  // The email rule allows ' and + but no <, = or (: a quote is the closest an address gets to markup.
  email: `o'x+'-${Date.now().toString(36)}@example.com`,
};
const PASSWORD = 'correct horse battery';

interface Author {
  idToken: string;
  uid: string;
}

async function signUpHostile(request: APIRequestContext): Promise<Author> {
  const response = await request.post('/identity/v1/accounts:signUp?key=e2e', {
    data: { email: PAYLOADS.email, password: PASSWORD, displayName: PAYLOADS.displayName, returnSecureToken: true },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { idToken: string; localId: string };
  return { idToken: body.idToken, uid: body.localId };
}

/** Fails the test on any dialog and notes script the payloads would have run. */
function watch(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

async function expectNothingInjected(page: Page, where: string) {
  const found = await page.evaluate(() => ({
    xss: (window as unknown as { __xss?: string }).__xss ?? null,
    handlers: document.querySelectorAll('[onerror],[onload],[onmouseover],[onfocus]').length,
    // Data blocks the browser never runs: JSON-LD (the article page's link-preview metadata) and the
    // site's identity (application/json, read by the app).
    inlineScripts: [...document.querySelectorAll('script')].filter(
      (s) => !s.src && s.type !== 'application/ld+json' && s.type !== 'application/json',
    ).length,
    strayImages: document.querySelectorAll('img[src="x"]').length,
    svgs: document.querySelectorAll('svg[onload]').length,
  }));
  expect(found, where).toEqual({ xss: null, handlers: 0, inlineScripts: 0, strayImages: 0, svgs: 0 });
}

test('hostile article and profile text renders as text on every screen', async ({ page, request }) => {
  const dialogs = watch(page);
  const author = await signUpHostile(request);
  const refusedImage = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${author.idToken}` },
    data: { image: 'javascript:alert(1)', title: 't', description: 'd' },
  });
  expect(refusedImage.status()).toBe(400);
  const created = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${author.idToken}` },
    data: { image: PAYLOADS.image, title: PAYLOADS.title, description: PAYLOADS.description },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // Home, signed out.
  await page.goto('/');
  await expect(page.getByText(PAYLOADS.title, { exact: true }).first()).toBeVisible();
  await expectNothingInjected(page, 'home');

  // The article page: title, description, author name, image.
  await page.goto(`/article/${id}`);
  await expect(page.getByRole('heading', { name: PAYLOADS.title })).toBeVisible();
  await expect(page.getByText("window.__xss='description'", { exact: false }).first()).toBeVisible();
  await expect(page.getByText(PAYLOADS.displayName, { exact: false }).first()).toBeVisible();
  await expectNothingInjected(page, 'article');
  // The server-written JSON-LD holds the hostile text as data, intact.
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as {
    headline?: string;
  };
  expect(jsonLd.headline).toBe(PAYLOADS.title);

  // Signed in as the hostile author: top bar, editor, profile.
  await page.goto('/login');
  await page.getByLabel('Email').fill(PAYLOADS.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' })).toBeVisible();
  await expectNothingInjected(page, 'home, signed in (top bar)');

  await page.goto(`/article-update/${id}`);
  await expect(page.getByRole('textbox').first()).toBeVisible();
  const values = await page
    .getByRole('textbox')
    .evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement | HTMLTextAreaElement).value));
  expect(values).toEqual(expect.arrayContaining([PAYLOADS.image, PAYLOADS.title, PAYLOADS.description]));
  await expectNothingInjected(page, 'editor');

  await page.goto('/profile');
  await expect(page.getByTestId('profile-name')).toHaveText(PAYLOADS.displayName);
  await expect(page.getByTestId('profile-email')).toHaveText(PAYLOADS.email.toLowerCase());
  await expectNothingInjected(page, 'profile');

  expect(dialogs).toEqual([]);
});

test('the Content-Security-Policy stops inline script injected into the page', async ({ page }) => {
  const dialogs = watch(page);
  // Init scripts run through the DevTools protocol, outside the page's CSP: a fair observer.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(event.effectiveDirective));
  });
  // The real shell, with the policy the server sent, plus an inline script as an injection would add.
  await page.route('**/', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const html = (await response.text()).replace(
      '</body>',
      `<script>window.__inline = 'ran'; alert('inline')</script><img src="data:," onerror="window.__inline='handler'"></body>`,
    );
    return route.fulfill({ response, body: html });
  });
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible(); // the app's own script runs

  // A script element added at run time (as a DOM-injection bug would) is blocked too.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = "window.__inserted = 'ran'";
    document.body.append(script);
  });
  await page.waitForTimeout(200);
  const state = await page.evaluate(() => ({
    inline: (window as unknown as { __inline?: string }).__inline ?? null,
    inserted: (window as unknown as { __inserted?: string }).__inserted ?? null,
    violations: (window as unknown as { __violations: string[] }).__violations,
  }));
  expect(state.inline).toBeNull();
  expect(state.inserted).toBeNull();
  expect(state.violations.filter((directive) => directive.startsWith('script-src')).length).toBeGreaterThanOrEqual(2);
  expect(dialogs).toEqual([]);
});
